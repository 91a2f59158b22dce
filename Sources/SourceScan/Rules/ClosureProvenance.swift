import ScanEngine
import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// Where the closures stored in a property come from and where they are called, as far as
/// one file shows — the reasoning of `unchecked-sendable-closure`.
///
/// A closure can crash with dispatch_assert_queue only if it is actor-isolated. A closure is
/// visibly not isolated when it is `nil`, a closure literal written outside any global actor
/// that uses no non-Sendable closure it was handed, a method of a value whose type the file
/// declares without a global actor, or a value handed over as `@Sendable` (and collection
/// literals of those). Anything else — a
/// non-Sendable closure parameter, a setter's `newValue`, an `append` — may carry an isolated
/// closure in.
struct ClosureProvenance {
    let declarations: FileDeclarations
    let lines: LineTable

    init(tree: SourceFileSyntax, lines: LineTable) {
        declarations = FileDeclarations(tree: tree)
        self.lines = lines
    }

    /// Why closures stored in the property may be actor-isolated and called elsewhere, or
    /// whether the file shows they cannot: every write stores a visibly nonisolated closure
    /// (when other files may write it too, `safeUnlessWrittenElsewhere` says they must be looked
    /// at), or the property is file-private and every read (every call) runs on one global
    /// actor.
    func verdict(
        name: TokenSyntax, decl: VariableDeclSyntax, binding: PatternBindingSyntax, owner: (any DeclGroupSyntax)?
    ) -> Verdict {
        let ownerIsFilePrivate = owner.map { Self.fileScoped($0, setterOnly: false) } == true
        let readInFileOnly = ownerIsFilePrivate || Self.fileScoped(decl, setterOnly: false)
        let writtenInFileOnly = ownerIsFilePrivate || Self.fileScoped(decl, setterOnly: true)
        let writes = self.writes(
            of: name.text, declaration: name, binding: binding,
            ownerName: owner.flatMap { TypeDeclarations.name(of: $0) })
        if let unsafe = writes.first(where: { !isNonisolatedClosure($0.value, at: $0.site) }) {
            if readInFileOnly, singleGlobalActor(reading: name, owner: owner) != nil { return .safe }
            return .unsafe(
                "\(quote(unsafe.site)) (line \(line(of: unsafe.site))) stores a closure that may be actor-isolated")
        }
        if writtenInFileOnly { return .safe }
        if decl.bindingSpecifier.tokenKind == .keyword(.let) {
            // Only initialisers store a `let`; a struct without its own may be built memberwise elsewhere.
            if !writes.isEmpty, !Self.isMemberwise(owner) { return .safe }
        } else if decl.modifiers.contains(where: { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) }) {
            return .unsafe("it is public, so code outside the module may store any closure in it")
        }
        return .safeUnlessWrittenElsewhere
    }

    enum Verdict: Equatable {
        case safe
        /// With the reason.
        case unsafe(String)
        /// Safe in this file; other (non-test) files may write it too.
        case safeUnlessWrittenElsewhere
    }

    // MARK: Writes

    struct Write {
        /// The stored value (nil: not one the rule can classify, such as `append(…)`).
        var value: ExprSyntax?
        /// Where the write is.
        var site: Syntax
    }

    /// Every store into the property in this file: its default value, assignments (`x.name =`,
    /// `name =` outside a local shadow), labelled arguments of memberwise constructions of the
    /// owner, and mutations that add closures (`append`, `insert`, subscript stores, `+=`, `&`).
    func writes(of name: String, declaration: TokenSyntax?, binding: PatternBindingSyntax?, ownerName: String?)
        -> [Write]
    {
        var writes: [Write] = []
        if let value = binding?.initializer?.value { writes.append(Write(value: value, site: Syntax(value))) }
        for token in declarations.tree.tokens(viewMode: .sourceAccurate)
        where token.text == name && token.id != declaration?.id {
            if let write = write(through: token, ownerName: ownerName, declaringFile: declaration != nil) {
                writes.append(write)
            }
        }
        return writes
    }

    private func write(through token: TokenSyntax, ownerName: String?, declaringFile: Bool) -> Write? {
        // `Owner(name: value)` / `.init(name: value)`: a memberwise store.
        if let argument = token.parent?.as(LabeledExprSyntax.self), argument.label?.id == token.id,
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
            isConstruction(of: ownerName, callee: call.calledExpression, implicitInit: declaringFile)
        {
            return Write(value: argument.expression, site: Syntax(argument))
        }
        guard let access = propertyAccess(token, ownerName: ownerName) else { return nil }
        let parent = access.parent
        if let list = parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count >= 3, elements[0].id == access.id {
                if elements[1].is(AssignmentExprSyntax.self) {
                    return Write(value: elements.count == 3 ? elements[2] : nil, site: Syntax(sequence))
                }
                if let operation = elements[1].as(BinaryOperatorExprSyntax.self), operation.operator.text == "+=" {
                    return Write(value: nil, site: Syntax(sequence))
                }
            }
        }
        if parent?.is(InOutExprSyntax.self) == true { return Write(value: nil, site: Syntax(access)) }
        if let subscriptCall = parent?.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == access.id,
            let list = subscriptCall.parent?.as(ExprListSyntax.self), list.first?.id == subscriptCall.id,
            list.count >= 3,
            list.dropFirst().first?.is(AssignmentExprSyntax.self) == true
        {
            return Write(value: nil, site: Syntax(subscriptCall))
        }
        if let member = parent?.as(MemberAccessExprSyntax.self), member.base?.id == access.id,
            ["append", "insert", "updateValue", "merge"].contains(member.declName.baseName.text)
        {
            return Write(value: nil, site: Syntax(member))
        }
        return nil
    }

    /// The expression reading or writing the property through `token`: `x.name`, or `name` /
    /// `self.name` inside the owner (not shadowed by a local).
    private func propertyAccess(_ token: TokenSyntax, ownerName: String?) -> ExprSyntax? {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return nil }
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            let viaSelf = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
            if viaSelf { return isInside(ownerName, Syntax(member)) ? ExprSyntax(member) : nil }
            // `operation.completion`: another type's property when the file shows `operation`'s type.
            if let ownerName, let base = member.base, let type = Self.localType(of: base), type != ownerName {
                return nil
            }
            return ExprSyntax(member)
        }
        if reference.parent?.is(MemberAccessExprSyntax.self) == true || LocalName(token, at: reference).isLocal {
            return nil
        }
        return isInside(ownerName, Syntax(reference)) ? ExprSyntax(reference) : nil
    }

    /// The type of a parameter or local the file declares with a type annotation or builds
    /// with an initialiser call (`let operation = ReferralTask()`); nil when it cannot tell.
    private static func localType(of base: ExprSyntax) -> String? {
        var expression = base
        if let chained = expression.as(OptionalChainingExprSyntax.self) { expression = chained.expression }
        guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return nil }
        switch LocalName(reference.baseName, at: reference) {
        case .parameter(let parameter):
            return TypeDeclarations.simpleName(of: parameter.type)
        case .variable(let binding):
            if let type = binding.typeAnnotation?.type { return TypeDeclarations.simpleName(of: type) }
            guard let call = binding.initializer?.value.withoutWrappers.as(FunctionCallExprSyntax.self) else {
                return nil
            }
            return StateInitFinder.constructedTypeName(call.calledExpression, impliedType: nil)
        case .otherLocal, .notLocal:
            return nil
        }
    }

    /// Whether the innermost type or extension around `node` is `ownerName`'s (any, for a
    /// global).
    private func isInside(_ ownerName: String?, _ node: Syntax) -> Bool {
        guard let ownerName else { return true }
        var current = node.parent
        while let syntax = current {
            if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                return TypeDeclarations.name(of: group) == ownerName
            }
            current = syntax.parent
        }
        return false
    }

    /// `Owner(…)`, `Owner.init(…)`, and with `implicitInit` (in the file declaring the owner,
    /// where the type is the owner's more often than not) `.init(…)`.
    private func isConstruction(of ownerName: String?, callee: ExprSyntax, implicitInit: Bool) -> Bool {
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            return ownerName != nil && reference.baseName.text == ownerName
        }
        guard let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" else {
            return false
        }
        guard let base = member.base else { return implicitInit }
        return base.as(DeclReferenceExprSyntax.self)?.baseName.text == ownerName
    }

    /// `nil`, a closure literal outside any global actor that uses no non-Sendable closure it
    /// was handed, a method of a value of a nonisolated type of this file, a `@Sendable`
    /// closure parameter, or an array or dictionary literal of those (empty ones included).
    func isNonisolatedClosure(_ value: ExprSyntax?, at site: Syntax) -> Bool {
        guard let value = value?.withoutWrappers else { return false }
        if value.is(NilLiteralExprSyntax.self) { return true }
        if let array = value.as(ArrayExprSyntax.self) {
            return array.elements.allSatisfy { isNonisolatedClosure($0.expression, at: site) }
        }
        if let dictionary = value.as(DictionaryExprSyntax.self) {
            guard case .elements(let elements) = dictionary.content else { return true }
            return elements.allSatisfy { isNonisolatedClosure($0.value, at: site) }
        }
        if let closure = value.as(ClosureExprSyntax.self) {
            if let attributes = closure.signature?.attributes, TypeDeclarations.globalActor(in: attributes) != nil {
                return false
            }
            guard case .none = isolation(of: Syntax(closure)) else { return false }
            return !closure.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.parent?.is(DeclReferenceExprSyntax.self) == true,
                    case .parameter(let parameter) = LocalName(token, at: token)
                else { return false }
                return declarations.uncheckedFunctionType(in: parameter.type) != nil
            }
        }
        if let member = value.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            case .parameter(let parameter) = LocalName(base.baseName, at: base)
        {
            return declarations.nonisolatedTypes.contains(TypeDeclarations.simpleName(of: parameter.type))
        }
        if let reference = value.as(DeclReferenceExprSyntax.self),
            case .parameter(let parameter) = LocalName(reference.baseName, at: reference)
        {
            return declarations.isFunctionType(parameter.type)
                && declarations.uncheckedFunctionType(in: parameter.type) == nil
        }
        return false
    }

    // MARK: Other files

    /// A property whose closures other files may store.
    struct Property: Sendable, Hashable, Codable {
        var name: String
        /// The declaring type, for memberwise constructions.
        var owner: String?
        /// The declaring file, whose writes were already judged.
        var path: String
    }

    /// The stores of possibly isolated closures into `properties` in other files than the
    /// declaring one, in the files whose bytes hold the shape of such a store.
    static func lookup(for properties: Set<Property>) -> FileLookup? {
        guard !properties.isEmpty else { return nil }
        let needles = Set(properties.map { Store(name: Array($0.name.utf8), owner: $0.owner.map { Array($0.utf8) }) })
        return FileLookup(
            releaseOnly: true, names: Set(properties.map(\.name)),
            question: "stores "
                + properties.map { "\($0.owner ?? "_").\($0.name)@\($0.path)" }.sorted().joined(separator: " "),
            mayHold: { file, bytes in
                properties.contains { $0.path != file.relativePath } && needles.contains { $0.mayBe(in: bytes) }
            },
            answer: { file in
                let provenance = ClosureProvenance(tree: file.tree, lines: file.lines)
                var stores: [Property: String] = [:]
                for property in properties where property.path != file.path {
                    let writes = provenance.writes(
                        of: property.name, declaration: nil, binding: nil, ownerName: property.owner)
                    if let unsafe = writes.first(where: { !provenance.isNonisolatedClosure($0.value, at: $0.site) }) {
                        stores[property] = "\(file.path):\(provenance.line(of: unsafe.site))"
                    }
                }
                return LookupAnswers(stores: stores)
            }
        )
    }

    /// The byte shape of a store into a property from another file, to spare the parser the
    /// files that merely read it: `name =` (not `==`), `name +=`, `name[`, `&name`,
    /// `name.append` / `.insert` / `.updateValue` / `.merge`, or the label `name:` in a file that
    /// names the owner (a memberwise construction).
    private struct Store: Hashable {
        var name: [UInt8]
        var owner: [UInt8]?

        private static let mutations = ["append", "insert", "updateValue", "merge"].map { Array($0.utf8) }

        func mayBe(in bytes: borrowing ByteView) -> Bool {
            let namesOwner = owner.map { owner in WholeWords.contains(owner, in: bytes) { _ in true } } ?? false
            return WholeWords.contains(name, in: bytes) { hit in
                if hit > 0, bytes[hit - 1] == UInt8(ascii: "&") { return true }
                let next = WholeWords.skippingBlanks(from: hit + name.count, in: bytes)
                guard next < bytes.count else { return false }
                let after = next + 1 < bytes.count ? bytes[next + 1] : 0
                switch bytes[next] {
                case UInt8(ascii: "="): return after != UInt8(ascii: "=")
                case UInt8(ascii: "+"): return after == UInt8(ascii: "=")
                case UInt8(ascii: "["): return true
                case UInt8(ascii: ":"): return namesOwner && after != UInt8(ascii: ":")
                case UInt8(ascii: "."):
                    return Self.mutations.contains { word in
                        bytes.matches(word, at: next + 1)
                    }
                default: return false
                }
            }
        }
    }

    // MARK: Isolation

    enum Isolation {
        case globalActor(String)
        /// Not isolated to a global actor, as far as the syntax shows; `place` names the code.
        case none(place: String)
    }

    /// The global actor code at `node` runs on: the nearest function, accessor, property or
    /// closure attribute (`@MainActor func`), else the enclosing type's (or, for an extension,
    /// the extended type's or protocol's when this file declares it). A closure that is not the
    /// body of a `Task { }` may run anywhere.
    func isolation(of node: Syntax) -> Isolation {
        var place: String?
        var current = node.parent
        while let syntax = current {
            if let closure = syntax.as(ClosureExprSyntax.self) {
                if let attributes = closure.signature?.attributes,
                    let actor = TypeDeclarations.globalActor(in: attributes)
                {
                    return .globalActor(actor)
                }
                if let actor = parameterActor(of: closure) { return .globalActor(actor) }
                if !Self.isTaskBody(closure), !inheritsIsolation(closure) { return .none(place: place ?? "a closure") }
            } else if let function = syntax.as(FunctionDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: function.attributes) { return .globalActor(actor) }
                place = place ?? "`\(function.name.text)()`"
                if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
                    return .none(place: place!)
                }
            } else if let initializer = syntax.as(InitializerDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: initializer.attributes) { return .globalActor(actor) }
                place = place ?? "`init`"
                if initializer.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
                    return .none(place: place!)
                }
            } else if let variable = syntax.as(VariableDeclSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: variable.attributes) { return .globalActor(actor) }
                place = place ?? "`\(variable.bindings.first?.pattern.trimmedDescription ?? "a property")`"
            } else if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                if let actor = TypeDeclarations.globalActor(in: group.attributes)
                    ?? TypeDeclarations.name(of: group).flatMap({ declarations.globalActors[$0] })
                {
                    return .globalActor(actor)
                }
                return .none(place: place ?? "the type")
            }
            current = syntax.parent
        }
        return .none(place: place ?? "top-level code")
    }

    /// The one global actor every read of the property in this file (every place its closure
    /// can be called from) runs on, or nil. Stores do not matter: a closure formed on that
    /// actor, or on none, may be called there.
    private func singleGlobalActor(reading name: TokenSyntax, owner: (any DeclGroupSyntax)?) -> String? {
        let ownerName = owner.flatMap { TypeDeclarations.name(of: $0) }
        var actors: Set<String> = []
        for token in declarations.tree.tokens(viewMode: .sourceAccurate)
        where token.text == name.text && token.id != name.id {
            guard write(through: token, ownerName: ownerName, declaringFile: true) == nil,
                let access = propertyAccess(token, ownerName: ownerName)
            else { continue }
            guard case .globalActor(let actor) = isolation(of: Syntax(access)) else { return nil }
            actors.insert(actor)
        }
        return actors.count == 1 ? actors.first : nil
    }

    /// The global actor of the function-typed parameters a closure is handed to, when every
    /// declaration of the called function (by name, in this file) that takes closures takes
    /// them isolated to that one actor: `createZoneRecord(completion: @escaping @MainActor (…) -> Void)`.
    private func parameterActor(of closure: ClosureExprSyntax) -> String? {
        guard let functions = calledFunctions(of: closure) else { return nil }
        let actors = functions.flatMap { function in
            function.signature.parameterClause.parameters.filter { declarations.isFunctionType($0.type) }.map {
                Self.globalActor(of: $0.type)
            }
        }
        guard let first = actors.first, let actor = first, actors.allSatisfy({ $0 == actor }) else { return nil }
        return actor
    }

    private static func globalActor(of type: TypeSyntax) -> String? {
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return nil }
        return TypeDeclarations.globalActor(in: attributed.attributes) ?? globalActor(of: attributed.baseType)
    }

    /// The file's declarations of the function a closure is an argument (or trailing closure) of.
    private func calledFunctions(of closure: ClosureExprSyntax) -> [FunctionDeclSyntax]? {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self) else { return nil }
        let name =
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        return name.flatMap { declarations.functions[$0] }
    }

    /// A closure handed to a function of this file none of whose declarations (by name) takes a
    /// `@Sendable` closure: a non-Sendable closure keeps the isolation it was formed in.
    private func inheritsIsolation(_ closure: ClosureExprSyntax) -> Bool {
        guard let functions = calledFunctions(of: closure) else { return false }
        return functions.allSatisfy { function in
            function.signature.parameterClause.parameters.allSatisfy { parameter in
                !declarations.isFunctionType(parameter.type)
                    || declarations.uncheckedFunctionType(in: parameter.type) != nil
            }
        }
    }

    /// `Task { … }` / `Task(priority:) { … }`: the closure inherits the caller's isolation.
    private static func isTaskBody(_ closure: ClosureExprSyntax) -> Bool {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self) else { return false }
        let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.base ?? call.calledExpression
        return callee.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task"
    }

    // MARK: Helpers

    /// `private` / `fileprivate` (with `setterOnly`, `private(set)` too).
    private static func fileScoped(_ decl: some SyntaxProtocol, setterOnly: Bool) -> Bool {
        let modifiers = decl.asProtocol(WithModifiersSyntax.self)?.modifiers ?? []
        return modifiers.contains {
            [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) && (setterOnly || $0.detail == nil)
        }
    }

    /// A struct without initialisers of its own: other files may construct it memberwise.
    private static func isMemberwise(_ owner: (any DeclGroupSyntax)?) -> Bool {
        guard let owner, owner.is(StructDeclSyntax.self) else { return false }
        return TypeDeclarations.initializers(in: owner.memberBlock).isEmpty
    }

    func line(of node: Syntax) -> Int {
        lines.position(of: node.positionAfterSkippingLeadingTrivia.utf8Offset).line
    }

    private func quote(_ node: Syntax) -> String {
        let text = node.trimmedDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return "`" + (text.count > 60 ? text.prefix(57) + "…" : text) + "`"
    }
}

/// What `unchecked-sendable-closure` reads off a whole file: its typealiases, which of its
/// types are nonisolated or isolated to a global actor, its extensions and functions, and
/// which types are function types that are neither `@Sendable` nor global-actor isolated.
struct FileDeclarations {
    let tree: SourceFileSyntax
    /// Typealiases without generic parameters, by name.
    let aliases: [String: TypeSyntax]
    /// Classes, structs and enums the file declares without a global actor.
    let nonisolatedTypes: Set<String>
    /// Types and protocols the file declares with a global actor, and that actor.
    let globalActors: [String: String]
    /// Top-level extensions, by type name.
    let extensions: [String: [ExtensionDeclSyntax]]
    /// Functions and methods, by name.
    let functions: [String: [FunctionDeclSyntax]]

    init(tree: SourceFileSyntax) {
        let collector = Collector()
        collector.walk(tree)
        self.tree = tree
        aliases = collector.aliases
        nonisolatedTypes = collector.nonisolatedTypes
        globalActors = collector.globalActors
        functions = collector.functions
        extensions = Dictionary(grouping: TypeDeclarations.topLevelExtensions(in: tree)) {
            TypeDeclarations.simpleName(of: $0.extendedType)
        }
    }

    enum UncheckedClosure {
        case written(FunctionTypeSyntax)
        /// Through a typealias of this file.
        case alias(String)
    }

    /// The function type inside `type` that is neither `@Sendable` nor isolated to a global
    /// actor (nor a C function pointer): directly, in an optional, array, dictionary value or
    /// tuple, or behind one of the file's typealiases.
    func uncheckedFunctionType(in type: TypeSyntax, depth: Int = 0) -> UncheckedClosure? {
        guard depth < 8 else { return nil }
        if let function = type.as(FunctionTypeSyntax.self) { return .written(function) }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            let names = attributed.attributes.compactMap { TypeDeclarations.attributeName($0) }
            if names.contains("Sendable") || TypeDeclarations.globalActor(in: attributed.attributes) != nil {
                return nil
            }
            if attributed.attributes.contains(where: { Self.isCConvention($0) }) { return nil }
            return uncheckedFunctionType(in: attributed.baseType, depth: depth + 1)
        }
        if let optional = type.as(OptionalTypeSyntax.self) {
            return uncheckedFunctionType(in: optional.wrappedType, depth: depth + 1)
        }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return uncheckedFunctionType(in: optional.wrappedType, depth: depth + 1)
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return uncheckedFunctionType(in: array.element, depth: depth + 1)
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return uncheckedFunctionType(in: dictionary.value, depth: depth + 1)
        }
        if let tuple = type.as(TupleTypeSyntax.self) {
            return tuple.elements.lazy.compactMap { self.uncheckedFunctionType(in: $0.type, depth: depth + 1) }.first
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            let name = identifier.name.text
            if let arguments = identifier.genericArgumentClause?.arguments,
                ["Optional", "Array", "Dictionary"].contains(name),
                case .type(let argument)? = arguments.last?.argument
            {
                return uncheckedFunctionType(in: argument, depth: depth + 1)
            }
            if identifier.genericArgumentClause == nil, let target = aliases[name] {
                return uncheckedFunctionType(in: target, depth: depth + 1).map { _ in .alias(name) }
            }
        }
        return nil
    }

    /// A function type, possibly attributed or optional.
    func isFunctionType(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isFunctionType(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) { return isFunctionType(optional.wrappedType) }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return isFunctionType(only.type)
        }
        return false
    }

    private static func isCConvention(_ element: AttributeListSyntax.Element) -> Bool {
        guard case .attribute(let attribute) = element, attribute.attributeName.trimmedDescription == "convention"
        else { return false }
        let argument = attribute.arguments?.trimmedDescription ?? ""
        return argument == "c" || argument == "thin"
    }

    private final class Collector: SyntaxVisitor {
        var aliases: [String: TypeSyntax] = [:]
        var nonisolatedTypes: Set<String> = []
        var globalActors: [String: String] = [:]
        var functions: [String: [FunctionDeclSyntax]] = [:]
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            functions[node.name.text, default: []].append(node)
            return .skipChildren
        }
        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            if node.genericParameterClause == nil { aliases[node.name.text] = node.initializer.value }
            return .skipChildren
        }
        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name, node.attributes) }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name, node.attributes) }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name, node.attributes) }
        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
            if let actor = TypeDeclarations.globalActor(in: node.attributes) { globalActors[node.name.text] = actor }
            return .skipChildren
        }
        override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        private func note(_ name: TokenSyntax, _ attributes: AttributeListSyntax) -> SyntaxVisitorContinueKind {
            if let actor = TypeDeclarations.globalActor(in: attributes) {
                globalActors[name.text] = actor
            } else {
                nonisolatedTypes.insert(name.text)
            }
            return .visitChildren
        }
    }
}
