import ShipcheckCore
import SourceScan
import SwiftLexicalLookup
import SwiftSyntax

/// A place where release code names something that may be a DEBUG-only declaration, with all
/// the syntax says about it, so that whether it is one can be decided later, once every file's
/// declarations are known, without the tree (`reference(in:)`).
struct ReferenceFact: Sendable, Codable {
    enum Form: Sendable, Codable {
        /// `MockData()`, `sampleItems`: "cannot find 'X' in scope".
        case value
        /// `let data: MockData`: "cannot find type 'X' in scope".
        case type
        /// `User.mock`: "type 'User' has no member 'mock'".
        case member(of: String)
        /// `let item: Feed.Fixture`: "'Fixture' is not a member type of struct 'Feed'".
        case memberType(of: String)
    }

    /// What lexical lookup met for a name, innermost scope first, up to the first local binding.
    enum LookupStep: Sendable, Codable {
        /// A local binding or generic parameter with this name is in scope.
        case local
        /// An enclosing type (or extension) whose members the name may mean.
        case members(owner: String)
    }

    /// The referenced name (for `Type.member`, the member).
    var name: String
    var form: Form
    /// The lookup of `name` for a bare name, of the type's name for `Type.member`.
    var lookup: [LookupStep]
    var line: Int
    var column: Int
    var endLine: Int
    var endColumn: Int
    /// The names of the declarations enclosing the reference, outermost first (`ContentView.body`).
    var enclosing: String
    var lineText: String

    /// The archive-breaking reference this is, given every declaration of the target; nil when
    /// the name is not DEBUG-only there, or a local binding or a release member shadows it.
    func reference(in index: DebugOnlyIndex) -> [DeclaredName]? {
        switch form {
        case .value, .type:
            guard index.isCandidate(name) else { return nil }
            switch resolve(name, in: index) {
            case .local: return nil
            case .member(let members): return members
            case .notLocal:
                let declarations = index.declarations(of: name, owner: nil)
                return declarations.isEmpty ? nil : declarations
            }
        case .member(let type), .memberType(let type):
            let declarations = index.declarations(of: name, owner: type)
            // A DEBUG-only base type is reported where it is named; a local value named like a
            // type is not the type.
            guard index.isCandidate(name), !declarations.isEmpty, !index.isCandidate(type),
                case .notLocal = resolve(type, in: index)
            else { return nil }
            return declarations
        }
    }

    private enum Resolution {
        case local
        /// The innermost enclosing type (or extension) declares DEBUG-only members with this name.
        case member([DeclaredName])
        case notLocal
    }

    private func resolve(_ looked: String, in index: DebugOnlyIndex) -> Resolution {
        for step in lookup {
            switch step {
            case .local:
                return .local
            case .members(let owner):
                let members = index.declarations(of: looked, owner: owner)
                if !members.isEmpty { return .member(members) }
            }
        }
        return .notLocal
    }
}

/// Finds, in one release file, the places release code names something whose name passes
/// `mayBeDebugOnly` (a superset of the target's DEBUG-only names), with the lexical lookup of
/// each: bare identifiers and type names are looked up with SwiftLexicalLookup (a local
/// binding — variable, parameter, closure parameter, `if let`, pattern, generic parameter — or
/// a member of the enclosing type with the same name shadows a DEBUG-only declaration), and
/// `Type.member` is kept for the member's name.
final class ReleaseReferenceFinder: SyntaxVisitor {
    private let file: ParsedSwiftFile
    private let evaluator: ReleaseConditionEvaluator
    private let mayBeDebugOnly: (String) -> Bool
    /// Byte ranges of the file's previews: the preview rules report those, and wrapping the
    /// preview in `#if DEBUG` fixes its references too.
    private let previewRanges: [Range<Int>]
    private(set) var facts: [ReferenceFact] = []

    init(file: ParsedSwiftFile, evaluator: ReleaseConditionEvaluator, mayBeDebugOnly: @escaping (String) -> Bool) {
        self.file = file
        self.evaluator = evaluator
        self.mayBeDebugOnly = mayBeDebugOnly
        previewRanges = file.previewRanges
        super.init(viewMode: .sourceAccurate)
    }

    static func facts(
        in file: ParsedSwiftFile, evaluator: ReleaseConditionEvaluator, mayBeDebugOnly: @escaping (String) -> Bool
    ) -> [ReferenceFact] {
        let finder = ReleaseReferenceFinder(file: file, evaluator: evaluator, mayBeDebugOnly: mayBeDebugOnly)
        finder.walk(file.tree)
        return finder.facts
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if MockData` names a flag, not the declaration; only the clause's body is code.
        if let elements = node.elements { walk(elements) }
        return .skipChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let parent = node.parent {
            // `x.name` and `\.name` name members, not anything in scope.
            if let access = parent.as(MemberAccessExprSyntax.self), access.declName.id == node.id {
                return .skipChildren
            }
            if parent.is(KeyPathPropertyComponentSyntax.self) { return .skipChildren }
        }
        recordUnqualified(node.baseName, node: Syntax(node), form: .value)
        return .skipChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        recordUnqualified(node.name, node: Syntax(node), form: .type)
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if let base = node.base?.as(DeclReferenceExprSyntax.self), base.argumentNames == nil {
            recordMember(node.declName.baseName, of: base.baseName, base: Syntax(base), form: ReferenceFact.Form.member)
        }
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        if let base = node.baseType.as(IdentifierTypeSyntax.self) {
            recordMember(node.name, of: base.name, base: Syntax(base), form: ReferenceFact.Form.memberType)
        }
        return .visitChildren
    }

    private func recordUnqualified(_ token: TokenSyntax, node: Syntax, form: ReferenceFact.Form) {
        guard let name = Identifier(token)?.name, mayBeDebugOnly(name), isReleaseCode(node) else { return }
        record(token, name: name, form: form, lookup: lookup(token, node: node), at: node)
    }

    /// `Type.member` (or the type `Type.Member`) where `member` may be DEBUG-only for `Type`.
    private func recordMember(
        _ memberToken: TokenSyntax, of typeToken: TokenSyntax, base: Syntax, form: (String) -> ReferenceFact.Form
    ) {
        guard let typeName = Identifier(typeToken)?.name, let member = Identifier(memberToken)?.name,
            mayBeDebugOnly(member), isReleaseCode(base)
        else { return }
        record(memberToken, name: member, form: form(typeName), lookup: lookup(typeToken, node: base), at: base)
    }

    /// What lexical lookup meets for the token's name, up to the first local binding.
    private func lookup(_ token: TokenSyntax, node: Syntax) -> [ReferenceFact.LookupStep] {
        guard let identifier = Identifier(token) else { return [] }
        var steps: [ReferenceFact.LookupStep] = []
        for result in node.lookup(identifier) {
            switch result {
            case .fromScope(_, let names) where !names.isEmpty:
                // The source file's own scope introduces only top-level `guard` bindings:
                // every name found in a scope is a local one.
                steps.append(.local)
                return steps
            case .lookForMembers(let scope):
                if let owner = TypeOwner.name(of: scope) { steps.append(.members(owner: owner)) }
            default:
                continue
            }
        }
        return steps
    }

    /// Compiled in release, outside previews.
    private func isReleaseCode(_ node: Syntax) -> Bool {
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        if previewRanges.contains(where: { $0.contains(offset) }) { return false }
        return evaluator.verdict(for: node, memo: file.clauseMemo) != .excluded
    }

    private func record(
        _ token: TokenSyntax, name: String, form: ReferenceFact.Form, lookup: [ReferenceFact.LookupStep],
        at node: Syntax
    ) {
        let start = file.lines.position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset)
        let end = file.lines.position(of: token.endPositionBeforeTrailingTrivia.utf8Offset)
        facts.append(
            ReferenceFact(
                name: name, form: form, lookup: lookup, line: start.line, column: start.column,
                endLine: end.line, endColumn: end.column, enclosing: Self.enclosingNames(of: node),
                lineText: file.lineText(start.line)))
    }

    /// `ContentView.body`, `AppDelegate.application`, or `top level`.
    static func enclosingNames(of node: Syntax) -> String {
        var names: [String] = []
        var current = node.parent
        while let syntax = current {
            if let owner = TypeOwner.name(of: syntax) {
                names.append(owner)
            } else if let function = syntax.as(FunctionDeclSyntax.self) {
                names.append(function.name.text)
            } else if syntax.is(InitializerDeclSyntax.self) {
                names.append("init")
            } else if syntax.is(SubscriptDeclSyntax.self) {
                names.append("subscript")
            } else if let variable = syntax.as(VariableDeclSyntax.self),
                let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
            {
                names.append(pattern.identifier.text)
            }
            current = syntax.parent
        }
        return names.isEmpty ? "top level" : names.reversed().joined(separator: ".")
    }
}
