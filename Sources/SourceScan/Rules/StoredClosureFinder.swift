import ShipcheckCore
import SwiftSyntax

/// The check of `unchecked-sendable-closure`: stored properties of function type that are
/// neither `@Sendable` nor global-actor isolated, in `@unchecked Sendable` classes and structs
/// (conformance declared on the type or by an extension in the same file), and `var`s of
/// function type marked `nonisolated(unsafe)` outside function bodies.
final class StoredClosureFinder: SyntaxVisitor {
    private(set) var hits: [RuleHit] = []
    /// The file's typealiases, by name.
    private let aliases: [String: TypeSyntax]
    /// The file's extensions, by type name.
    private let extensions: [String: [ExtensionDeclSyntax]]

    private init(tree: SourceFileSyntax) {
        let collector = AliasCollector()
        collector.walk(tree)
        aliases = collector.aliases
        extensions = Dictionary(grouping: TypeDeclarations.topLevelExtensions(in: tree)) { TypeDeclarations.simpleName(of: $0.extendedType) }
        super.init(viewMode: .sourceAccurate)
    }

    static func hits(in tree: SourceFileSyntax) -> [RuleHit] {
        let finder = StoredClosureFinder(tree: tree)
        finder.walk(tree)
        return finder.hits
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        inspect(node, typeName: node.name.text)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        inspect(node, typeName: node.name.text)
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard Self.isNonisolatedUnsafe(node), node.bindingSpecifier.tokenKind == .keyword(.var),
              node.parent?.is(MemberBlockItemSyntax.self) == true || node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else {
            return .skipChildren
        }
        let isStatic = node.modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        let kind = isStatic ? "static var" : "var"
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier, TypeDeclarations.isStored(binding),
                  let type = binding.typeAnnotation?.type, let closure = uncheckedFunctionType(in: type) else { continue }
            let owner = Self.enclosingTypeName(of: Syntax(node))
            hits.append(hit(name: name, type: type, closure: closure, decl: node, identity: [owner, name.text].compactMap { $0 }.joined(separator: "."),
                            message: "`\(name.text): \(type.trimmedDescription)` is a `nonisolated(unsafe) \(kind)` of function type: nothing checks what the closure captures or which thread calls it"))
        }
        return .skipChildren
    }

    private func inspect(_ decl: some DeclGroupSyntax, typeName: String) {
        let sameFileExtensions = extensions[typeName] ?? []
        guard TypeDeclarations.declaresUncheckedSendable(decl.inheritanceClause)
                || sameFileExtensions.contains(where: { TypeDeclarations.declaresUncheckedSendable($0.inheritanceClause) }),
              TypeDeclarations.globalActor(in: decl.attributes) == nil else { return }
        for property in TypeDeclarations.storedProperties(in: decl.memberBlock) {
            guard !Self.isNonisolatedUnsafe(property.decl), TypeDeclarations.globalActor(in: property.decl.attributes) == nil,
                  let type = property.type, let closure = uncheckedFunctionType(in: type) else { continue }
            let name = property.name.text
            var message = "`\(name): \(type.trimmedDescription)` is a stored closure of \(typeName), which is @unchecked Sendable: nothing checks what the closure captures or which thread calls it"
            if property.isLet {
                guard let reason = Self.whyNotConfined(property, in: [Syntax(decl)] + sameFileExtensions.map(Syntax.init)) else { continue }
                message += "; it cannot be seen to stay on one actor: \(reason)"
            }
            hits.append(hit(name: property.name, type: type, closure: closure, decl: property.decl, identity: "\(typeName).\(name)", message: message))
        }
    }

    private func hit(name: TokenSyntax, type: TypeSyntax, closure: UncheckedClosure, decl: VariableDeclSyntax, identity: String, message: String) -> RuleHit {
        let suggestion: String
        switch closure {
        case .written(let function):
            let text = type.trimmedDescription, functionText = function.trimmedDescription
            suggestion = "`\(text.replacingOccurrences(of: functionText, with: "@Sendable " + functionText))`"
        case .alias(let alias):
            suggestion = "in `typealias \(alias)`"
        }
        return RuleHit(
            anchor: name, scope: Syntax(decl),
            message: message + "; a closure formed on the main actor and called from another thread crashes (dispatch_assert_queue)",
            identity: identity,
            fixHint: "declare the function type @Sendable, \(suggestion) (or @MainActor if it must run on the main actor)")
    }

    // MARK: Function types

    private enum UncheckedClosure {
        case written(FunctionTypeSyntax)
        /// Through a typealias of this file.
        case alias(String)
    }

    /// The function type inside `type` that is neither `@Sendable` nor isolated to a global
    /// actor (nor a C function pointer): directly, in an optional, array, dictionary value or
    /// tuple, or behind one of the file's typealiases.
    private func uncheckedFunctionType(in type: TypeSyntax, depth: Int = 0) -> UncheckedClosure? {
        guard depth < 8 else { return nil }
        if let function = type.as(FunctionTypeSyntax.self) { return .written(function) }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            let names = attributed.attributes.compactMap { TypeDeclarations.attributeName($0) }
            if names.contains("Sendable") || TypeDeclarations.globalActor(in: attributed.attributes) != nil { return nil }
            if attributed.attributes.contains(where: { Self.isCConvention($0) }) { return nil }
            return uncheckedFunctionType(in: attributed.baseType, depth: depth + 1)
        }
        if let optional = type.as(OptionalTypeSyntax.self) { return uncheckedFunctionType(in: optional.wrappedType, depth: depth + 1) }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return uncheckedFunctionType(in: optional.wrappedType, depth: depth + 1) }
        if let array = type.as(ArrayTypeSyntax.self) { return uncheckedFunctionType(in: array.element, depth: depth + 1) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return uncheckedFunctionType(in: dictionary.value, depth: depth + 1) }
        if let tuple = type.as(TupleTypeSyntax.self) {
            return tuple.elements.lazy.compactMap { self.uncheckedFunctionType(in: $0.type, depth: depth + 1) }.first
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            let name = identifier.name.text
            if let arguments = identifier.genericArgumentClause?.arguments, ["Optional", "Array", "Dictionary"].contains(name),
               case .type(let argument)? = arguments.last?.argument {
                return uncheckedFunctionType(in: argument, depth: depth + 1)
            }
            if identifier.genericArgumentClause == nil, let target = aliases[name] {
                return uncheckedFunctionType(in: target, depth: depth + 1).map { _ in .alias(name) }
            }
        }
        return nil
    }

    private static func isCConvention(_ element: AttributeListSyntax.Element) -> Bool {
        guard case .attribute(let attribute) = element, attribute.attributeName.trimmedDescription == "convention" else { return false }
        let argument = attribute.arguments?.trimmedDescription ?? ""
        return argument == "c" || argument == "thin"
    }

    private static func isNonisolatedUnsafe(_ decl: VariableDeclSyntax) -> Bool {
        decl.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) && $0.detail?.detail.text == "unsafe" }
    }

    private final class AliasCollector: SyntaxVisitor {
        var aliases: [String: TypeSyntax] = [:]
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            if node.genericParameterClause == nil { aliases[node.name.text] = node.initializer.value }
            return .skipChildren
        }
        override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }

    // MARK: Confinement of a `let`

    /// Why a `let` closure cannot be seen to stay on the actor it was formed on, or nil when it
    /// can: the property is private, and every use in the type and its same-file extensions
    /// (the initialiser storing it included) is isolated to the same global actor.
    private static func whyNotConfined(_ property: TypeDeclarations.StoredProperty, in scopes: [Syntax]) -> String? {
        let name = property.name.text
        guard property.decl.modifiers.contains(where: { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }) else {
            return "it is not private, so code elsewhere may call it on any thread"
        }
        var actors: Set<String> = []
        for scope in scopes {
            for token in scope.tokens(viewMode: .sourceAccurate) where token.text == name && token.id != property.name.id {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                switch isolation(of: Syntax(reference)) {
                case .globalActor(let actor): actors.insert(actor)
                case .none(let place): return "\(place) uses it outside any global actor"
                }
            }
        }
        return actors.count > 1 ? "it is used from more than one global actor (\(actors.sorted().joined(separator: ", ")))" : nil
    }

    private enum Isolation {
        case globalActor(String)
        /// Not isolated to a global actor, as far as the syntax shows; `place` names the code.
        case none(place: String)
    }

    /// The global actor code at `node` runs on: the nearest function, accessor, property or
    /// closure attribute (`@MainActor func`), else the enclosing type's. A closure that is not
    /// the body of a `Task { }` may run anywhere.
    private static func isolation(of node: Syntax) -> Isolation {
        var place: String?
        var current = node.parent
        while let syntax = current {
            if let closure = syntax.as(ClosureExprSyntax.self) {
                if let attributes = closure.signature?.attributes, let actor = TypeDeclarations.globalActor(in: attributes) { return .globalActor(actor) }
                if !isTaskBody(closure) { return .none(place: place ?? "a closure") }
            } else if let function = syntax.as(FunctionDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: function.attributes) { return .globalActor(actor) }
                place = place ?? "`\(function.name.text)()`"
                if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) { return .none(place: place!) }
            } else if let initializer = syntax.as(InitializerDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: initializer.attributes) { return .globalActor(actor) }
                place = place ?? "`init`"
                if initializer.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) { return .none(place: place!) }
            } else if let variable = syntax.as(VariableDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: variable.attributes) { return .globalActor(actor) }
                place = place ?? "`\(variable.bindings.first?.pattern.trimmedDescription ?? "a property")`"
            } else if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: group.attributes) { return .globalActor(actor) }
                return .none(place: place ?? "the type")
            }
            current = syntax.parent
        }
        return .none(place: place ?? "top-level code")
    }

    /// `Task { … }` / `Task(priority:) { … }`: the closure inherits the caller's isolation.
    private static func isTaskBody(_ closure: ClosureExprSyntax) -> Bool {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self) else { return false }
        let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.base ?? call.calledExpression
        return callee.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task"
    }

    private static func enclosingTypeName(of node: Syntax) -> String? {
        var current = node.parent
        while let syntax = current {
            if let group = syntax.asProtocol(DeclGroupSyntax.self) { return TypeDeclarations.name(of: group) }
            current = syntax.parent
        }
        return nil
    }

    // MARK: Prefilter

    /// Whether some line declares `let`/`var NAME:` or `typealias NAME =` before a `->`: the
    /// byte-level shape of a function-typed property or alias (a type spelled over several
    /// lines is missed).
    static func mayDeclareFunctionTypedStorage(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let arrow: [UInt8] = Array("->".utf8)
        return arrow.withUnsafeBytes { needle in
            var from = 0
            while let hit = ByteSearch.find(needle, in: bytes, from: from) {
                from = hit + needle.count
                var lineStart = hit
                while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                if declaresName(in: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<hit])) { return true }
            }
            return false
        }
    }

    private static let declaringKeywords: [[UInt8]] = ["let", "var", "typealias"].map { Array($0.utf8) }

    /// `… let|var NAME :` or `… typealias NAME … =` in one line's bytes before an arrow.
    private static func declaresName(in line: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        func skipBlanks() { while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 } }
        while index < line.count {
            guard ByteSearch.isIdentifierByte(line[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < line.count, ByteSearch.isIdentifierByte(line[index]) { index += 1 }
            guard let keyword = declaringKeywords.firstIndex(where: { $0.elementsEqual(line[start..<index]) }) else { continue }
            skipBlanks()
            let nameStart = index
            while index < line.count, ByteSearch.isIdentifierByte(line[index]) { index += 1 }
            guard index > nameStart else { continue }
            if declaringKeywords[keyword] == declaringKeywords[2] { return line[index...].contains(0x3D) }
            skipBlanks()
            if index < line.count, line[index] == 0x3A { return true }
        }
        return false
    }
}
