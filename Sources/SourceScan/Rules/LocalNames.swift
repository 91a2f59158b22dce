import SwiftLexicalLookup
import SwiftSyntax

/// What a bare name in a function body refers to, by SwiftLexicalLookup: a parameter, a local
/// variable, another local binding (closure parameter, `if let`, pattern, local function), or
/// nothing local at all (a member reached through implicit `self`, or a global).
enum LocalName {
    case parameter(FunctionParameterSyntax)
    /// `let name = …` / `var name = …` in a function body.
    case variable(PatternBindingSyntax)
    case otherLocal
    case notLocal

    init(_ token: TokenSyntax, at node: some SyntaxProtocol) {
        self = .notLocal
        guard let identifier = Identifier(token) else { return }
        for result in node.lookup(identifier) {
            guard case .fromScope(_, let names) = result, let name = names.first else { continue }
            let syntax = Syntax(name.syntax)
            if let parameter = syntax.as(FunctionParameterSyntax.self) {
                self = .parameter(parameter)
            } else if let binding = syntax.parent?.as(PatternBindingSyntax.self),
                syntax.is(IdentifierPatternSyntax.self),
                binding.parent?.parent?.is(VariableDeclSyntax.self) == true
            {
                self = .variable(binding)
            } else {
                self = .otherLocal
            }
            return
        }
        if let binding = Self.variableInConditionalBlock(named: token.text, before: Syntax(node)) {
            self = .variable(binding)
        }
    }

    var isLocal: Bool {
        if case .notLocal = self { return false }
        return true
    }

    /// SwiftLexicalLookup does not see variables declared inside an `#if` clause of a code
    /// block: look for one in the statements before `node`, at every enclosing block.
    private static func variableInConditionalBlock(named name: String, before node: Syntax) -> PatternBindingSyntax? {
        var child = node
        while let parent = child.parent {
            if let items = parent.as(CodeBlockItemListSyntax.self),
                items.contains(where: { $0.item.is(IfConfigDeclSyntax.self) })
                    || parent.parent?.is(IfConfigClauseSyntax.self) == true
            {
                for item in items where item.endPosition <= child.position {
                    if let binding = variable(named: name, in: Syntax(item.item)) { return binding }
                }
            }
            if parent.is(MemberBlockSyntax.self) || parent.is(SourceFileSyntax.self) { return nil }
            child = parent
        }
        return nil
    }

    private static func variable(named name: String, in item: Syntax) -> PatternBindingSyntax? {
        if let decl = item.as(VariableDeclSyntax.self) {
            return decl.bindings.first { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
        }
        guard let ifConfig = item.as(IfConfigDeclSyntax.self) else { return nil }
        for clause in ifConfig.clauses {
            guard case .statements(let statements)? = clause.elements else { continue }
            for statement in statements {
                if let binding = variable(named: name, in: Syntax(statement.item)) { return binding }
            }
        }
        return nil
    }
}
