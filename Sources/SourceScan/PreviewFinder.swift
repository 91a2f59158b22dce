import ShipcheckCore
import SwiftSyntax

/// A preview found in a source file.
struct DetectedPreview: Sendable {
    enum Kind: Sendable {
        /// `#Preview` (expression statement or declaration).
        case macro
        /// A type or extension conforming to `PreviewProvider`, `_PreviewProvider` or `PreviewModifier`.
        case provider(conformance: String)
    }

    var kind: Kind
    /// The macro expansion or the type / extension declaration.
    var node: Syntax
    /// Where the finding points: the `#` of `#Preview`, or the type's keyword.
    var anchor: TokenSyntax
    /// What identifies it independently of its line: the preview's name or the type's name.
    var identity: String
}

/// Finds every `#Preview` and preview-provider type. Comments and string literals are not
/// code to the parser, so they never match; `any PreviewProvider.Type` used as a type and
/// `@Previewable` inside a body are not conformances or macro expansions either.
final class PreviewFinder: SyntaxVisitor {
    static let providerProtocols: Set<String> = ["PreviewProvider", "_PreviewProvider", "PreviewModifier"]

    private(set) var previews: [DetectedPreview] = []
    /// Names of the types enclosing the current node, for identities.
    private var typeNames: [String] = []

    init() { super.init(viewMode: .sourceAccurate) }

    static func find(in tree: SourceFileSyntax) -> [DetectedPreview] {
        let finder = PreviewFinder()
        finder.walk(tree)
        return finder.previews
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { visitMacro(node) }
    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind { visitMacro(node) }

    private func visitMacro(_ node: some FreestandingMacroExpansionSyntax) -> SyntaxVisitorContinueKind {
        guard node.macroName.text == "Preview" else { return .visitChildren }
        let name = node.arguments.first { $0.label == nil }?.expression.as(StringLiteralExprSyntax.self)?
            .representedLiteralValue
        let scope = typeNames.isEmpty ? "" : typeNames.joined(separator: ".") + "."
        let identity = name.map { "\(scope)#Preview(\"\($0)\")" } ?? "\(scope)#Preview \(Self.bodyDigest(node))"
        previews.append(DetectedPreview(kind: .macro, node: Syntax(node), anchor: node.pound, identity: identity))
        // Nothing inside a preview body is another finding.
        return .skipChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node, name: node.name.text) }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node, name: node.name.text) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node, name: node.name.text) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node, name: node.name.text) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        visitType(node, name: node.extendedType.trimmedDescription)
    }

    override func visitPost(_ node: StructDeclSyntax) { typeNames.removeLast() }
    override func visitPost(_ node: ClassDeclSyntax) { typeNames.removeLast() }
    override func visitPost(_ node: EnumDeclSyntax) { typeNames.removeLast() }
    override func visitPost(_ node: ActorDeclSyntax) { typeNames.removeLast() }
    override func visitPost(_ node: ExtensionDeclSyntax) { typeNames.removeLast() }

    private func visitType(_ node: some DeclGroupSyntax, name: String) -> SyntaxVisitorContinueKind {
        typeNames.append(name)
        guard
            let conformance = node.inheritanceClause?.inheritedTypes.lazy.compactMap({
                Self.previewProtocol(in: $0.type)
            }).first
        else {
            return .visitChildren
        }
        let qualified = typeNames.joined(separator: ".")
        previews.append(
            DetectedPreview(
                kind: .provider(conformance: conformance), node: Syntax(node), anchor: node.introducer,
                identity: "\(node.introducer.text) \(qualified): \(conformance)"))
        // A preview provider's body is preview code already; do not report inside it twice.
        // (visitPost still runs and pops the name.)
        return .skipChildren
    }

    /// The preview protocol a type in an inheritance clause names, if any: `PreviewProvider`,
    /// `SwiftUI.PreviewProvider`, `@MainActor PreviewProvider`, `PreviewProvider & Sendable`.
    static func previewProtocol(in type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), providerProtocols.contains(identifier.name.text) {
            return identifier.name.text
        }
        if let member = type.as(MemberTypeSyntax.self), providerProtocols.contains(member.name.text),
            let base = member.baseType.as(IdentifierTypeSyntax.self),
            ["SwiftUI", "DeveloperToolsSupport"].contains(base.name.text)
        {
            return member.trimmedDescription
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return previewProtocol(in: attributed.baseType) }
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.lazy.compactMap { previewProtocol(in: $0.type) }.first
        }
        return nil
    }

    /// A short, line-independent digest of an unnamed preview's code, so two unnamed previews
    /// in one file keep distinct fingerprints.
    private static func bodyDigest(_ node: some SyntaxProtocol) -> String {
        String(StableHash.hex128(ReleaseConditionEvaluator.normalized(node)).prefix(12))
    }
}

extension DetectedPreview {
    /// The finding of a preview a release build compiles (`rule` is the preview rule for its
    /// kind), or nil when it is DEBUG-only.
    func finding(_ rule: any SwiftSourceRule.Type, in file: ParsedSwiftFile, _ context: SwiftRuleContext)
        -> SourceFinding?
    {
        guard case .compiled(let when, let enclosing) = context.evaluator.verdict(for: node, memo: file.clauseMemo)
        else { return nil }
        let finding = file.finding(
            rule, at: anchor, message: "\(subject) is \(CompiledPhrase.text(when: when, enclosing: enclosing))",
            identity: identity, fixHint: "wrap it in #if DEBUG … #endif (`shipcheck sources --fix` does this)")
        return SourceFinding(finding: finding, leadingLines: file.leadingLines(of: node), preview: self)
    }

    /// How messages name it: `#Preview`, `#Preview("Dark")`, `struct ContentView_Previews: PreviewProvider`.
    var subject: String {
        switch kind {
        case .macro:
            let node = self.node.asProtocol(FreestandingMacroExpansionSyntax.self)
            let name = node?.arguments.first { $0.label == nil }?.expression.as(StringLiteralExprSyntax.self)?
                .representedLiteralValue
            return name.map { "#Preview(\"\($0)\")" } ?? "#Preview"
        case .provider(let conformance):
            let group = node.asProtocol(DeclGroupSyntax.self)
            let name =
                node.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
                ?? node.as(StructDeclSyntax.self)?.name.text ?? node.as(ClassDeclSyntax.self)?.name.text
                ?? node.as(EnumDeclSyntax.self)?.name.text ?? node.as(ActorDeclSyntax.self)?.name.text ?? ""
            return "\(group?.introducer.text ?? "type") \(name): \(conformance)"
        }
    }
}
