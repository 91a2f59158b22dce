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
            } else if let binding = syntax.parent?.as(PatternBindingSyntax.self), syntax.is(IdentifierPatternSyntax.self),
                      binding.parent?.parent?.is(VariableDeclSyntax.self) == true {
                self = .variable(binding)
            } else {
                self = .otherLocal
            }
            return
        }
    }

    var isLocal: Bool {
        if case .notLocal = self { return false }
        return true
    }
}
