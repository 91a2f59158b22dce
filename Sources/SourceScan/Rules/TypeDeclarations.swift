import SwiftSyntax

/// What the source rules read off type declarations: names, inheritance clauses, global
/// actors, stored properties and methods.
enum TypeDeclarations {
    /// `Model` for `Model`, `App.Model`, `Model<T>`, `Model?`, `any Model`.
    static func simpleName(of type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        if let optional = type.as(OptionalTypeSyntax.self) { return simpleName(of: optional.wrappedType) }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return simpleName(of: optional.wrappedType)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return simpleName(of: attributed.baseType) }
        if let some = type.as(SomeOrAnyTypeSyntax.self) { return simpleName(of: some.constraint) }
        return type.trimmedDescription
    }

    /// The unqualified names an inheritance clause lists, attributes dropped
    /// (`SwiftUI.View` is `View`, `@unchecked Sendable` is `Sendable`, `A & B` is both).
    static func inheritedNames(_ clause: InheritanceClauseSyntax?) -> Set<String> {
        var names: Set<String> = []
        for inherited in clause?.inheritedTypes ?? [] {
            if let composition = inherited.type.as(CompositionTypeSyntax.self) {
                for element in composition.elements { names.insert(simpleName(of: element.type)) }
            } else {
                names.insert(simpleName(of: inherited.type))
            }
        }
        return names
    }

    /// Whether the clause says `@unchecked Sendable` (or `@unchecked Swift.Sendable`).
    static func declaresUncheckedSendable(_ clause: InheritanceClauseSyntax?) -> Bool {
        (clause?.inheritedTypes ?? []).contains { inherited in
            guard let attributed = inherited.type.as(AttributedTypeSyntax.self),
                simpleName(of: attributed.baseType) == "Sendable"
            else { return false }
            return attributed.attributes.contains { attributeName($0) == "unchecked" }
        }
    }

    /// The name of a type declaration or extension (`Outer.Inner` for an extension of it).
    static func name(of decl: some DeclGroupSyntax) -> String? {
        if let decl = decl.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = decl.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = decl.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = decl.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = decl.as(ExtensionDeclSyntax.self) { return simpleName(of: decl.extendedType) }
        return nil
    }

    /// `MainActor` for `@MainActor` or `@SwiftUI.MainActor`; any attribute naming a type that
    /// ends in `Actor` counts as a global actor.
    static func globalActor(in attributes: AttributeListSyntax) -> String? {
        attributes.lazy.compactMap { attributeName($0) }.first {
            $0.hasSuffix("Actor") && $0.first?.isUppercase == true
        }
    }

    static func attributeName(_ element: AttributeListSyntax.Element) -> String? {
        guard case .attribute(let attribute) = element else { return nil }
        return simpleName(of: attribute.attributeName)
    }

    /// Attributes on stored properties that are not property wrappers.
    private static let builtinUppercaseAttributes: Set<String> = [
        "IBOutlet", "IBInspectable", "IBSegueAction", "NSManaged", "NSCopying", "GKInspectable"
    ]

    struct StoredProperty {
        var decl: VariableDeclSyntax
        var binding: PatternBindingSyntax
        var name: TokenSyntax
        var isLet: Bool { decl.bindingSpecifier.tokenKind == .keyword(.let) }
        var type: TypeSyntax? { binding.typeAnnotation?.type }
        /// The property wrapper attribute (`State`, `StateObject`, `Environment`, …), if any.
        var wrapper: String? {
            decl.attributes.lazy.compactMap { TypeDeclarations.attributeName($0) }.first { name in
                name.first?.isUppercase == true && !name.hasSuffix("Actor")
                    && !TypeDeclarations.builtinUppercaseAttributes.contains(name)
            }
        }
    }

    /// The stored instance properties a member block declares (looking through `#if`).
    static func storedProperties(in members: MemberBlockSyntax) -> [StoredProperty] {
        var result: [StoredProperty] = []
        forEachMember(members.members) { member in
            guard let decl = member.as(VariableDeclSyntax.self),
                !decl.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) })
            else { return }
            for binding in decl.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier, isStored(binding) else {
                    continue
                }
                result.append(StoredProperty(decl: decl, binding: binding, name: name))
            }
        }
        return result
    }

    /// No accessor block, or only `willSet` / `didSet` observers.
    static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return true }
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }

    /// Names of the instance methods a member block declares (looking through `#if`).
    static func methodNames(in members: MemberBlockSyntax) -> Set<String> {
        var names: Set<String> = []
        forEachMember(members.members) { member in
            guard let function = member.as(FunctionDeclSyntax.self),
                !function.modifiers.contains(where: {
                    [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind)
                })
            else { return }
            names.insert(function.name.text)
        }
        return names
    }

    /// The initialisers a member block declares (looking through `#if`).
    static func initializers(in members: MemberBlockSyntax) -> [InitializerDeclSyntax] {
        var result: [InitializerDeclSyntax] = []
        forEachMember(members.members) {
            if let initializer = $0.as(InitializerDeclSyntax.self) { result.append(initializer) }
        }
        return result
    }

    /// The file's top-level extensions (looking through `#if`).
    static func topLevelExtensions(in tree: SourceFileSyntax) -> [ExtensionDeclSyntax] {
        var result: [ExtensionDeclSyntax] = []
        func collect(_ items: CodeBlockItemListSyntax) {
            for item in items {
                if let ifConfig = item.item.as(IfConfigDeclSyntax.self) {
                    for clause in ifConfig.clauses {
                        if case .statements(let inner)? = clause.elements { collect(inner) }
                    }
                } else if let extensionDecl = item.item.as(ExtensionDeclSyntax.self) {
                    result.append(extensionDecl)
                }
            }
        }
        collect(tree.statements)
        return result
    }

    static func forEachMember(_ members: MemberBlockItemListSyntax, _ body: (DeclSyntax) -> Void) {
        for member in members {
            if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case .decls(let inner)? = clause.elements { forEachMember(inner, body) }
                }
            } else {
                body(member.decl)
            }
        }
    }
}

/// A walk over every class and struct of a file, nested ones included, outermost first.
class ClassAndStructVisitor: SyntaxVisitor {
    init() {
        super.init(viewMode: .sourceAccurate)
    }

    /// Called for each class and struct.
    func inspect(_ decl: any DeclGroupSyntax, typeName: String) {}

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        inspect(node, typeName: node.name.text)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        inspect(node, typeName: node.name.text)
        return .visitChildren
    }
}
