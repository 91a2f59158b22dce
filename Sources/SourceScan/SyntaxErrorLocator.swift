import SwiftSyntax

/// Finds the first syntax error in a tree the parser recovered from: a missing token or
/// unexpected text, with a short description for the input error.
final class SyntaxErrorLocator: SyntaxVisitor {
    struct Problem {
        var offset: Int
        var description: String
    }

    private var problem: Problem?

    init() { super.init(viewMode: .all) }

    static func first(in tree: some SyntaxProtocol) -> Problem? {
        let locator = SyntaxErrorLocator()
        locator.walk(tree)
        return locator.problem
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if problem == nil {
            let text = node.trimmedDescription.prefix(40)
            problem = Problem(
                offset: node.positionAfterSkippingLeadingTrivia.utf8Offset, description: "unexpected '\(text)'")
        }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if problem == nil, token.presence == .missing {
            let expected = token.tokenKind == .identifier("") ? "a name" : "'\(token.text)'"
            problem = Problem(
                offset: token.positionAfterSkippingLeadingTrivia.utf8Offset, description: "expected \(expected)")
        }
        return .skipChildren
    }
}
