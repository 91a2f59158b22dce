import ScanEngine
import ShipcheckCore
import SourceScan
import SwiftSyntax

/// A name a file declares where the rest of its target can see it: a top-level declaration,
/// or a member of a type or extension (nested types, functions, properties, enum cases).
struct DeclaredName: Sendable, Codable {
    var name: String
    /// The type it is a member of (an extension's extended type, last component), nil at top level.
    var owner: String?
    /// `struct`, `func`, `var`, `case`…, for messages.
    var kind: String
    var path: String
    var line: Int
    /// Only compiled when `DEBUG` is set (or the file is a development asset).
    var debugOnly: Bool
    /// In a Development Assets file (or `development-paths`), not merely under `#if DEBUG`.
    var inDevelopmentAsset: Bool

    /// `App/Preview Content/MockData.swift:3`
    var place: String { "\(path):\(line)" }
}

/// Collects the names a file declares at file and member level. Local declarations (inside
/// function bodies, closures, accessors, initial values) are invisible to other files and are
/// skipped, so the walk stays shallow.
final class DeclarationCollector: SyntaxVisitor {
    private let path: String
    private let lines: LineTable
    private let memo: ClauseMemo
    private let evaluator: ReleaseConditionEvaluator
    private let isDevelopmentAsset: Bool
    private var owners: [String] = []
    private(set) var names: [DeclaredName] = []

    init(file: ParsedSwiftFile, evaluator: ReleaseConditionEvaluator, isDevelopmentAsset: Bool) {
        path = file.path
        lines = file.lines
        memo = file.clauseMemo
        self.evaluator = evaluator
        self.isDevelopmentAsset = isDevelopmentAsset
        super.init(viewMode: .sourceAccurate)
    }

    static func collect(in file: ParsedSwiftFile, evaluator: ReleaseConditionEvaluator, isDevelopmentAsset: Bool)
        -> [DeclaredName]
    {
        let collector = DeclarationCollector(file: file, evaluator: evaluator, isDevelopmentAsset: isDevelopmentAsset)
        collector.walk(file.tree)
        return collector.names
    }

    private func record(_ token: TokenSyntax, kind: String, declaration: some SyntaxProtocol) {
        guard case .identifier = token.tokenKind, let identifier = Identifier(token) else { return }
        // An override names something a superclass declares in every build.
        if let modifiers = declaration.asProtocol(WithModifiersSyntax.self)?.modifiers,
            modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) })
        {
            return
        }
        let debugOnly = isDevelopmentAsset || evaluator.verdict(for: declaration, memo: memo) == .excluded
        names.append(
            DeclaredName(
                name: identifier.name, owner: owners.last, kind: kind, path: path,
                line: lines.position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset).line,
                debugOnly: debugOnly, inDevelopmentAsset: isDevelopmentAsset))
    }

    private func enterType(_ name: TokenSyntax, kind: String, declaration: some SyntaxProtocol)
        -> SyntaxVisitorContinueKind
    {
        record(name, kind: kind, declaration: declaration)
        owners.append(Identifier(name)?.name ?? name.text)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(node.name, kind: "struct", declaration: node)
    }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(node.name, kind: "class", declaration: node)
    }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(node.name, kind: "enum", declaration: node)
    }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(node.name, kind: "actor", declaration: node)
    }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(node.name, kind: "protocol", declaration: node)
    }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        owners.append(TypeOwner.name(ofExtendedType: node.extendedType))
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { owners.removeLast() }
    override func visitPost(_ node: ClassDeclSyntax) { owners.removeLast() }
    override func visitPost(_ node: EnumDeclSyntax) { owners.removeLast() }
    override func visitPost(_ node: ActorDeclSyntax) { owners.removeLast() }
    override func visitPost(_ node: ProtocolDeclSyntax) { owners.removeLast() }
    override func visitPost(_ node: ExtensionDeclSyntax) { owners.removeLast() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, kind: "typealias", declaration: node)
        return .skipChildren
    }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, kind: "associatedtype", declaration: node)
        return .skipChildren
    }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, kind: "func", declaration: node)
        return .skipChildren
    }
    override func visit(_ node: MacroDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, kind: "macro", declaration: node)
        return .skipChildren
    }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            for identifier in Self.identifiers(in: binding.pattern) {
                record(identifier, kind: node.bindingSpecifier.text, declaration: node)
            }
        }
        return .skipChildren
    }
    override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind {
        for element in node.elements { record(element.name, kind: "case", declaration: node) }
        return .skipChildren
    }
    // Bodies: whatever they declare is local.
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // The condition names flags, not declarations.
        if let elements = node.elements { walk(elements) }
        return .skipChildren
    }

    /// `let a`, `let (a, b)`, `var a: Int, b: Int`.
    private static func identifiers(in pattern: PatternSyntax) -> [TokenSyntax] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return [identifier.identifier] }
        if let tuple = pattern.as(TuplePatternSyntax.self) {
            return tuple.elements.flatMap { identifiers(in: $0.pattern) }
        }
        return []
    }
}

/// How a type declaration or an extension names the type whose members it holds.
enum TypeOwner {
    /// `Foo` for `extension Foo`, `Module.Foo`, `Foo<T>`; the text otherwise.
    static func name(ofExtendedType type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return Identifier(identifier.name)?.name ?? identifier.name.text
        }
        if let member = type.as(MemberTypeSyntax.self) { return Identifier(member.name)?.name ?? member.name.text }
        return type.trimmedDescription
    }

    /// The member owner a syntax node stands for, when it is a type declaration or an extension.
    static func name(of node: Syntax) -> String? {
        if let named = node.asProtocol(NamedDeclSyntax.self), node.isProtocol(DeclGroupSyntax.self) {
            return Identifier(named.name)?.name ?? named.name.text
        }
        if let extensionDecl = node.as(ExtensionDeclSyntax.self) {
            return name(ofExtendedType: extensionDecl.extendedType)
        }
        return nil
    }
}
