import SwiftSyntax

/// The check of `dynamic-property-captures-self`: in each `init` of a struct with
/// property-wrapper storage, assignments to stored properties whose value captures `self`.
final class SelfCaptureFinder: SyntaxVisitor {
    static let swiftUIProtocols = ["View", "DynamicProperty"]

    private(set) var hits: [ProposedFinding] = []
    /// Methods declared in the file's extensions, by type name.
    private let extensionMethods: [String: Set<String>]

    private init(extensionMethods: [String: Set<String>]) {
        self.extensionMethods = extensionMethods
        super.init(viewMode: .sourceAccurate)
    }

    static func hits(in tree: SourceFileSyntax) -> [ProposedFinding] {
        var methods: [String: Set<String>] = [:]
        for extensionDecl in TypeDeclarations.topLevelExtensions(in: tree) {
            methods[TypeDeclarations.simpleName(of: extensionDecl.extendedType), default: []]
                .formUnion(TypeDeclarations.methodNames(in: extensionDecl.memberBlock))
        }
        let finder = SelfCaptureFinder(extensionMethods: methods)
        finder.walk(tree)
        return finder.hits
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        inspect(node)
        return .visitChildren
    }

    private func inspect(_ decl: StructDeclSyntax) {
        let stored = TypeDeclarations.storedProperties(in: decl.memberBlock)
        let wrapped = stored.filter { $0.wrapper != nil }
        let initializers = TypeDeclarations.initializers(in: decl.memberBlock)
        guard !wrapped.isEmpty, !initializers.isEmpty else { return }
        let typeName = decl.name.text
        var state: Set<String> = []
        for property in stored where property.wrapper != nil || !property.isLet { state.insert(property.name.text) }
        for property in wrapped { state.formUnion(["_" + property.name.text, "$" + property.name.text]) }
        let members = Members(
            methods: TypeDeclarations.methodNames(in: decl.memberBlock).union(extensionMethods[typeName] ?? []),
            state: state,
            constants: Set(stored.filter { $0.wrapper == nil && $0.isLet }.map(\.name.text)))
        let targets = Set(stored.map(\.name.text) + wrapped.map { "_" + $0.name.text })
        let requirement: TypeFactRequirement? =
            TypeDeclarations.inheritedNames(decl.inheritanceClause).isDisjoint(with: Self.swiftUIProtocols)
            ? .conformance(type: typeName, anyOf: Self.swiftUIProtocols) : nil
        var storage: [String] = []
        for property in wrapped where !storage.contains("@" + property.wrapper!) {
            storage.append("@" + property.wrapper!)
        }
        for initializer in initializers {
            guard let body = initializer.body else { continue }
            for assignment in Assignment.all(in: body) where targets.contains(assignment.target.text) {
                if assignment.statement.elements.first?.is(DeclReferenceExprSyntax.self) == true,
                    LocalName(assignment.target, at: assignment.target).isLocal
                {
                    continue
                }
                guard let capture = CaptureScanner.first(in: assignment.value, members: members) else { continue }
                let target = assignment.target.text
                hits.append(
                    ProposedFinding(
                        anchor: capture.anchor, scope: Syntax(assignment.statement),
                        message:
                            "`\(target)` in \(typeName).init \(capture.what), which captures a copy of self before SwiftUI attaches its \(storage.joined(separator: ", ")) storage: through that copy the closure reads stale state and its writes never update the view",
                        identity: "\(typeName).init \(target)",
                        fixHint:
                            "make `\(target)` a computed property, so the closure is built from the attached view when it is used, or capture only the values or references it needs",
                        requirement: requirement))
            }
        }
    }

    struct Members {
        var methods: Set<String>
        /// Stored `var`s, property-wrapped properties and their `_` storage and `$` projections.
        var state: Set<String>
        /// Stored `let` properties without a property wrapper: reading them through a copy of
        /// self is harmless.
        var constants: Set<String>
    }

    /// Finds the first capture of `self` in an assigned value: a method reference (not a call)
    /// at any depth, or a closure (not called on the spot) that uses `self` or an instance
    /// member other than a constant, explicitly or implicitly.
    private final class CaptureScanner: SyntaxVisitor {
        let members: Members
        var closureDepth = 0
        var found: (anchor: TokenSyntax, what: String)?

        init(members: Members) {
            self.members = members
            super.init(viewMode: .sourceAccurate)
        }

        static func first(in value: [ExprSyntax], members: Members) -> (anchor: TokenSyntax, what: String)? {
            let scanner = CaptureScanner(members: members)
            for expression in value where scanner.found == nil { scanner.walk(expression) }
            return scanner.found
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            if found != nil || isCallee(Syntax(node)) { return .skipChildren }
            closureDepth += 1
            return .visitChildren
        }

        override func visitPost(_ node: ClosureExprSyntax) {
            if !isCallee(Syntax(node)) { closureDepth -= 1 }
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            guard found == nil else { return .skipChildren }
            let token = node.baseName
            if let member = node.parent?.as(MemberAccessExprSyntax.self) {
                if member.declName.id == node.id { return .skipChildren }
                if token.tokenKind == .keyword(.self) {
                    // `self.member`
                    let name = member.declName.baseName.text
                    if closureDepth > 0, !members.constants.contains(name) {
                        found = (token, "stores a closure that uses `self.\(name)`")
                    } else if closureDepth == 0, members.methods.contains(name), !isCallee(Syntax(member)) {
                        found = (member.declName.baseName, "stores a reference to the method `\(name)`")
                    }
                    return .skipChildren
                }
            }
            if token.tokenKind == .keyword(.self) {
                if closureDepth > 0 { found = (token, "stores a closure that uses `self`") }
                return .skipChildren
            }
            let name = token.text
            if closureDepth > 0 {
                guard members.state.contains(name) || members.methods.contains(name),
                    !LocalName(token, at: node).isLocal
                else { return .skipChildren }
                found = (token, "stores a closure that uses `\(name)` (through self)")
            } else if members.methods.contains(name), !isCallee(Syntax(node)), !LocalName(token, at: node).isLocal {
                found = (token, "stores a reference to the method `\(name)`")
            }
            return .skipChildren
        }

        private func isCallee(_ node: Syntax) -> Bool {
            node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
        }
    }
}
