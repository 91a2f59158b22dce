import SourceScan
import SwiftLexicalLookup
import SwiftSyntax

/// A place where release code names a DEBUG-only declaration.
struct ArchiveBreakingReference {
    enum Form {
        /// `MockData()`, `sampleItems`: "cannot find 'X' in scope".
        case value
        /// `let data: MockData`: "cannot find type 'X' in scope".
        case type
        /// `User.mock`: "type 'User' has no member 'mock'".
        case member(of: String)
        /// `let item: Feed.Fixture`: "'Fixture' is not a member type of struct 'Feed'".
        case memberType(of: String)
    }

    /// The token naming the declaration (what the finding points at).
    var token: TokenSyntax
    var name: String
    var form: Form
    /// The DEBUG-only declarations the name can mean, first one named in the message.
    var declarations: [DeclaredName]
    /// The names of the declarations enclosing the reference, outermost first (`ContentView.body`).
    var enclosing: String
}

/// Finds, in one release file, the references to a target's DEBUG-only names that a release
/// build compiles. Bare identifiers and type names are matched by name, then resolved with
/// SwiftLexicalLookup so a local binding (variable, parameter, closure parameter, `if let`,
/// pattern, generic parameter) or a release member of the enclosing type with the same name
/// shadows them; `Type.member` is checked when the member is declared DEBUG-only for `Type`.
final class ReleaseReferenceFinder: SyntaxVisitor {
    private let index: DebugOnlyIndex
    private let evaluator: ReleaseConditionEvaluator
    /// Byte ranges of the file's previews: the preview rules report those, and wrapping the
    /// preview in `#if DEBUG` fixes its references too.
    private let previewRanges: [Range<Int>]
    private(set) var references: [ArchiveBreakingReference] = []

    init(index: DebugOnlyIndex, evaluator: ReleaseConditionEvaluator, tree: SourceFileSyntax) {
        self.index = index
        self.evaluator = evaluator
        previewRanges = SwiftPreviews.nodes(in: tree).map { $0.position.utf8Offset..<$0.endPosition.utf8Offset }
        super.init(viewMode: .sourceAccurate)
    }

    static func find(in tree: SourceFileSyntax, index: DebugOnlyIndex, evaluator: ReleaseConditionEvaluator) -> [ArchiveBreakingReference] {
        let finder = ReleaseReferenceFinder(index: index, evaluator: evaluator, tree: tree)
        finder.walk(tree)
        return finder.references
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if MockData` names a flag, not the declaration; only the clause's body is code.
        if let elements = node.elements { walk(elements) }
        return .skipChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let parent = node.parent {
            // `x.name` and `\.name` name members, not anything in scope.
            if let access = parent.as(MemberAccessExprSyntax.self), access.declName.id == node.id { return .skipChildren }
            if parent.is(KeyPathPropertyComponentSyntax.self) { return .skipChildren }
        }
        checkUnqualified(node.baseName, node: Syntax(node), form: .value)
        return .skipChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        checkUnqualified(node.name, node: Syntax(node), form: .type)
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if let base = node.base?.as(DeclReferenceExprSyntax.self), base.argumentNames == nil {
            checkMember(node.declName.baseName, of: base.baseName, base: Syntax(base), form: ArchiveBreakingReference.Form.member)
        }
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        if let base = node.baseType.as(IdentifierTypeSyntax.self) {
            checkMember(node.name, of: base.name, base: Syntax(base), form: ArchiveBreakingReference.Form.memberType)
        }
        return .visitChildren
    }

    /// `Type.member` (or the type `Type.Member`) where `member` is declared DEBUG-only for `Type`.
    private func checkMember(_ memberToken: TokenSyntax, of typeToken: TokenSyntax, base: Syntax, form: (String) -> ArchiveBreakingReference.Form) {
        guard let typeName = Identifier(typeToken)?.name, let member = Identifier(memberToken)?.name, index.isCandidate(member) else { return }
        let declarations = index.declarations(of: member, owner: typeName)
        // A DEBUG-only base type is reported where it is named; a local value named like a
        // type is not the type.
        guard !declarations.isEmpty, !index.isCandidate(typeName), isReleaseCode(base),
              case .notLocal = resolve(typeToken, node: base) else { return }
        report(memberToken, name: member, form: form(typeName), declarations: declarations, at: base)
    }

    private func checkUnqualified(_ token: TokenSyntax, node: Syntax, form: ArchiveBreakingReference.Form) {
        guard let name = Identifier(token)?.name, index.isCandidate(name), isReleaseCode(node) else { return }
        let declarations: [DeclaredName]
        switch resolve(token, node: node) {
        case .local: return
        case .member(let owner):
            // Inside a type (or extension) the name means its member when the type has one.
            let members = index.declarations(of: name, owner: owner)
            declarations = members.isEmpty ? index.declarations(of: name, owner: nil) : members
        case .notLocal:
            declarations = index.declarations(of: name, owner: nil)
        }
        guard !declarations.isEmpty else { return }
        report(token, name: name, form: form, declarations: declarations, at: node)
    }

    private enum Resolution {
        /// A local binding or generic parameter with this name is in scope.
        case local
        /// The innermost enclosing type (or extension) declares a DEBUG-only member with this name.
        case member(owner: String)
        case notLocal
    }

    private func resolve(_ token: TokenSyntax, node: Syntax) -> Resolution {
        guard let identifier = Identifier(token) else { return .notLocal }
        for result in node.lookup(identifier) {
            switch result {
            case .fromScope(_, let names) where !names.isEmpty:
                // The source file's own scope introduces only top-level `guard` bindings:
                // every name found in a scope is a local one.
                return .local
            case .lookForMembers(let scope):
                if let owner = TypeOwner.name(of: scope), !index.declarations(of: identifier.name, owner: owner).isEmpty {
                    return .member(owner: owner)
                }
            default:
                continue
            }
        }
        return .notLocal
    }

    /// Compiled in release, outside previews.
    private func isReleaseCode(_ node: Syntax) -> Bool {
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        if previewRanges.contains(where: { $0.contains(offset) }) { return false }
        return evaluator.verdict(for: node) != .excluded
    }

    private func report(_ token: TokenSyntax, name: String, form: ArchiveBreakingReference.Form, declarations: [DeclaredName], at node: Syntax) {
        references.append(ArchiveBreakingReference(token: token, name: name, form: form, declarations: declarations,
                                                   enclosing: Self.enclosingNames(of: node)))
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
                      let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self) {
                names.append(pattern.identifier.text)
            }
            current = syntax.parent
        }
        return names.isEmpty ? "top level" : names.reversed().joined(separator: ".")
    }
}
