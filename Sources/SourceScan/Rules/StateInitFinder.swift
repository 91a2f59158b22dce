import SwiftSyntax

/// The check of `state-built-in-init`: in each `init` of a type declaring `@StateObject` or
/// `@State` properties, the assignments to their `_name` storage.
final class StateInitFinder: ClassAndStructVisitor {
    private enum Wrapper: String {
        case stateObject = "StateObject"
        case state = "State"
    }

    private(set) var hits: [ProposedFinding] = []

    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        super.init()
    }

    static func hits(in file: ParsedSwiftFile) -> [ProposedFinding] {
        let finder = StateInitFinder(bytes: file.bytes)
        finder.walk(file.tree)
        return finder.hits
    }

    override func inspect(_ decl: any DeclGroupSyntax, typeName: String) {
        // SwiftUI initialises an `App` once: nothing is rebuilt there.
        guard !TypeDeclarations.inheritedNames(decl.inheritanceClause).contains("App") else { return }
        var wrapped: [String: (Wrapper, TypeDeclarations.StoredProperty)] = [:]
        for property in TypeDeclarations.storedProperties(in: decl.memberBlock) {
            if let wrapper = property.wrapper.flatMap(Wrapper.init(rawValue:)) {
                wrapped["_" + property.name.text] = (wrapper, property)
            }
        }
        guard !wrapped.isEmpty else { return }
        for initializer in TypeDeclarations.initializers(in: decl.memberBlock) {
            guard let body = initializer.body else { continue }
            for assignment in Assignment.all(in: body) {
                guard let (wrapper, property) = wrapped[assignment.target.text], let value = assignment.singleValue,
                    let argument = Self.wrapperArgument(value, wrapper: wrapper)
                else { continue }
                let context = Context(
                    typeName: typeName, storage: assignment.target.text, property: property,
                    assignment: assignment, body: body)
                switch wrapper {
                case .stateObject: checkStateObject(argument, context)
                case .state: checkState(argument, context)
                }
            }
        }
    }

    private struct Context {
        var typeName: String
        var storage: String
        var property: TypeDeclarations.StoredProperty
        var assignment: Assignment
        var body: CodeBlockSyntax
        var objectType: String { property.type.map { TypeDeclarations.simpleName(of: $0) } ?? "object" }
        var identity: String { "\(typeName).init \(storage)" }
    }

    // MARK: @StateObject

    private func checkStateObject(_ argument: ExprSyntax, _ context: Context) {
        guard let reference = argument.withoutWrappers.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil
        else { return }
        let name = reference.baseName.text
        switch LocalName(reference.baseName, at: reference) {
        case .parameter(let parameter):
            var hit = ProposedFinding(
                anchor: reference.baseName, scope: Syntax(context.assignment.statement),
                message: "`\(context.storage)` is initialised from the parameter `\(name)`, which ",
                identity: context.identity,
                fixHint:
                    "build the object inside the autoclosure from the values it needs (`StateObject(wrappedValue: \(context.objectType)(…))`), or use @ObservedObject if the caller owns it"
            )
            let consequence =
                "outside StateObject's autoclosure: every initialisation of \(context.typeName) builds a new \(context.objectType) and SwiftUI throws all but the first away"
            if let defaultValue = parameter.defaultValue?.value.withoutWrappers.as(FunctionCallExprSyntax.self),
                Self.constructedType(defaultValue.calledExpression, impliedType: parameter.type) != nil
            {
                // The default argument is evaluated at every call that omits it.
                hit.message += "defaults to `\(defaultValue.trimmedDescription)`, built at every call \(consequence)"
            } else if let call = Self.methodCall(on: parameter, named: name, in: context.body) {
                // The init works on the object it hands SwiftUI: that work runs on every
                // initialisation, also on objects SwiftUI ignores.
                hit.message =
                    "`\(context.storage)` is initialised from the parameter `\(name)`, and init calls `\(call.calledExpression.trimmedDescription)()` on it: every initialisation of \(context.typeName) runs it again, though SwiftUI keeps only the first \(context.objectType) and ignores the ones passed later"
                hit.fixHint =
                    "do that work where the object is built, once (inside `StateObject(wrappedValue: \(context.objectType)(…))` or in `.task`), or use @ObservedObject if the caller owns it"
            } else {
                // A caller that passes an object it owns for the view's lifetime is fine; one
                // that builds it in the call is not. Only the scan can tell.
                let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
                hit.message += "a caller builds in the call, \(consequence)"
                hit.requirement = .builtByCaller(ConstructingCalls.Argument(callee: context.typeName, label: label))
            }
            hits.append(hit)
        case .variable(let binding):
            var hit = ProposedFinding(
                anchor: reference.baseName, scope: Syntax(context.assignment.statement),
                message:
                    "`\(context.storage)` is initialised from `\(name)`, built before StateObject's autoclosure runs: every initialisation of \(context.typeName) builds a new \(context.objectType) and SwiftUI throws all but the first away",
                identity: context.identity,
                fixHint:
                    "build the object inside the autoclosure: `\(context.storage) = StateObject(wrappedValue: \(context.objectType)(…))`"
            )
            switch ConstructionMove.plan(
                binding: binding, reference: reference, statement: context.assignment.statement,
                body: context.body, bytes: bytes)
            {
            case .success(let move):
                hit.move = move
                hit.fixHint += " (`shipcheck sources --fix` does this)"
            case .failure(let reason):
                hit.message += "; --fix leaves it: \(reason.text)"
            }
            hits.append(hit)
        case .otherLocal, .notLocal:
            return
        }
    }

    /// The first call of a method on the parameter `name` in the init body, `name.start()`.
    private static func methodCall(on parameter: FunctionParameterSyntax, named name: String, in body: CodeBlockSyntax)
        -> FunctionCallExprSyntax?
    {
        body.tokens(viewMode: .sourceAccurate).lazy.compactMap { token -> FunctionCallExprSyntax? in
            guard token.text == name, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
                let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
                case .parameter(let found) = LocalName(token, at: reference), found.id == parameter.id
            else { return nil }
            return call
        }.first
    }

    // MARK: @State

    private func checkState(_ argument: ExprSyntax, _ context: Context) {
        var source = argument.withoutWrappers
        // A local built beforehand: look at what built it.
        if let reference = source.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            guard case .variable(let binding) = LocalName(reference.baseName, at: reference),
                let value = binding.initializer?.value
            else { return }
            source = value
        }
        for (anchor, type) in Self.constructions(in: source, impliedType: context.property.type) {
            hits.append(
                ProposedFinding(
                    anchor: anchor, scope: Syntax(anchor.ancestorStatement ?? Syntax(context.assignment.statement)),
                    message:
                        "`\(context.storage)` in \(context.typeName).init receives a new \(type), a class, built on every initialisation of \(context.typeName): State takes a value, not an autoclosure, so SwiftUI keeps the first and throws the others away",
                    identity: "\(context.identity) \(type)",
                    fixHint:
                        "make the property optional and build the model in `.task { … }`, or own it higher up and pass it in",
                    requirement: .referenceType(type)))
        }
    }

    // MARK: Syntax shapes

    /// The argument of `StateObject(wrappedValue: x)`, `State(initialValue: x)`,
    /// `State(wrappedValue: x)`, `.init(wrappedValue: x)`, `SwiftUI.State<T>.init(…)`.
    private static func wrapperArgument(_ value: ExprSyntax, wrapper: Wrapper) -> ExprSyntax? {
        guard let call = value.as(FunctionCallExprSyntax.self),
            isWrapper(call.calledExpression, wrapper: wrapper, allowInit: true),
            call.arguments.count == 1, let argument = call.arguments.first,
            argument.label?.text == "wrappedValue" || (wrapper == .state && argument.label?.text == "initialValue")
        else { return nil }
        return argument.expression
    }

    private static func isWrapper(_ expression: ExprSyntax, wrapper: Wrapper, allowInit: Bool) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text == wrapper.rawValue
        }
        if let generic = expression.as(GenericSpecializationExprSyntax.self) {
            return isWrapper(generic.expression, wrapper: wrapper, allowInit: false)
        }
        guard let member = expression.as(MemberAccessExprSyntax.self) else { return false }
        let name = member.declName.baseName.text
        guard let base = member.base else { return allowInit && name == "init" }
        if allowInit, name == "init" { return isWrapper(base, wrapper: wrapper, allowInit: false) }
        return name == wrapper.rawValue && base.as(DeclReferenceExprSyntax.self)?.baseName.text == "SwiftUI"
    }

    /// The initialiser calls in `expression` that run when it is evaluated (closures that are
    /// not called on the spot are skipped), with the type each one constructs: `Model(…)`,
    /// `Model.init(…)`, `Module.Model(…)`, and `.init(…)` for `impliedType`.
    static func constructions(in expression: ExprSyntax, impliedType: TypeSyntax?) -> [(TokenSyntax, String)] {
        let finder = ConstructionFinder(impliedType: impliedType.map { TypeDeclarations.simpleName(of: $0) })
        finder.walk(expression)
        return finder.found
    }

    private final class ConstructionFinder: SyntaxVisitor {
        let impliedType: String?
        var found: [(TokenSyntax, String)] = []

        init(impliedType: String?) {
            self.impliedType = impliedType
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let type = StateInitFinder.constructedTypeName(node.calledExpression, impliedType: impliedType),
                let anchor = node.firstToken(viewMode: .sourceAccurate)
            {
                found.append((anchor, type))
            }
            return .visitChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
                ? .visitChildren : .skipChildren
        }
    }

    /// The type a call with this callee constructs: `Model(…)`, `Model<T>(…)`, `Model.init(…)`,
    /// `Module.Model(…)`, and `.init(…)` for `impliedType`; nil for anything else.
    static func constructedType(_ callee: ExprSyntax, impliedType: TypeSyntax?) -> String? {
        constructedTypeName(callee, impliedType: impliedType.map { TypeDeclarations.simpleName(of: $0) })
    }

    static func constructedTypeName(_ callee: ExprSyntax, impliedType: String?) -> String? {
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return name.first?.isUppercase == true ? name : nil
        }
        if let generic = callee.as(GenericSpecializationExprSyntax.self) {
            return constructedTypeName(generic.expression, impliedType: impliedType)
        }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
        let name = member.declName.baseName.text
        if name == "init" {
            guard let base = member.base else { return impliedType }
            return constructedTypeName(base, impliedType: nil)
        }
        return name.first?.isUppercase == true
            && member.base.flatMap({ constructedTypeName($0, impliedType: nil) }) != nil ? name : nil
    }
}

extension SyntaxProtocol {
    /// The statement (code block item) holding this node.
    var ancestorStatement: Syntax? {
        var node = parent
        while let current = node {
            if current.is(CodeBlockItemSyntax.self) { return current }
            node = current.parent
        }
        return nil
    }
}
