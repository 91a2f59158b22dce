import ScanEngine
import ShipcheckCore
import SwiftSyntax

/// Calls that hand a view a freshly built object for one of its parameters,
/// `DetailView(model: DetailModel(…))`, in the code of another view (a type conforming to
/// `View`, `ViewModifier` or `Scene`, or a `body`), release code only (previews and test code
/// aside): the evidence that a `@StateObject` initialised from that parameter is rebuilt
/// whenever the caller's body runs again. A UIKit controller that builds a hosting
/// controller's root view once is not such a caller. Looked up only for the parameters a
/// finding waits on, in the files that may mention the callee and contain `Callee(` at all.
enum ConstructingCalls {
    /// A parameter of an initialiser of `callee`, by its argument label (nil: unlabelled, first).
    struct Argument: Sendable, Hashable, Codable {
        var callee: String
        var label: String?
    }

    /// The calls that build one of `arguments` in place, in the files that contain `Callee(`.
    static func lookup(for arguments: Set<Argument>) -> FileLookup? {
        guard !arguments.isEmpty else { return nil }
        let needles = Set(arguments.map(\.callee)).map { Array(($0 + "(").utf8) }
        return FileLookup(
            releaseOnly: true, names: Set(arguments.map(\.callee)),
            question: "calls " + arguments.map { "\($0.callee)(\($0.label ?? "_"):)" }.sorted().joined(separator: " "),
            mayHold: { _, hay in needles.contains { hay.contains($0) } },
            answer: { file in
                let finder = Finder(arguments: arguments, previews: file.previewRanges)
                finder.walk(file.tree)
                return LookupAnswers(
                    calls: finder.found.mapValues { "\(file.path):\(file.lines.position(of: $0).line)" })
            }
        )
    }

    private final class Finder: SyntaxVisitor {
        let arguments: [String: [Argument]]
        /// Byte ranges of the file's previews, which build sample objects on purpose.
        let previews: [Range<Int>]
        /// Argument → byte offset of the call.
        var found: [Argument: Int] = [:]

        init(arguments: Set<Argument>, previews: [Range<Int>]) {
            self.arguments = Dictionary(grouping: arguments, by: \.callee)
            self.previews = previews
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let callee = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                let wanted = arguments[callee], !previews.contains(where: { $0.contains(node.position.utf8Offset) }),
                Self.isInViewCode(Syntax(node))
            else { return .visitChildren }
            for argument in wanted where found[argument] == nil {
                let passed =
                    argument.label.map { label in node.arguments.first { $0.label?.text == label } }
                    ?? node.arguments.first.flatMap { $0.label == nil ? $0 : nil }
                if let passed, let call = passed.expression.withoutWrappers.as(FunctionCallExprSyntax.self),
                    StateInitFinder.constructedTypeName(call.calledExpression, impliedType: "") != nil
                {
                    found[argument] = node.positionAfterSkippingLeadingTrivia.utf8Offset
                }
            }
            return .visitChildren
        }

        private static let viewProtocols: Set<String> = ["View", "ViewModifier", "Scene"]

        /// Inside a `body`, or a type (or extension) conforming to a protocol SwiftUI re-evaluates.
        private static func isInViewCode(_ node: Syntax) -> Bool {
            var current = node.parent
            while let syntax = current {
                if let variable = syntax.as(VariableDeclSyntax.self),
                    variable.bindings.contains(where: {
                        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
                    })
                {
                    return true
                }
                if let group = syntax.asProtocol(DeclGroupSyntax.self),
                    !TypeDeclarations.inheritedNames(group.inheritanceClause).isDisjoint(with: viewProtocols)
                {
                    return true
                }
                current = syntax.parent
            }
            return false
        }
    }
}
