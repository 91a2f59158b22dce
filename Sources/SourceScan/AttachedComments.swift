import SwiftSyntax

extension TokenSyntax {
    /// Byte offset where the comments directly above this token start — comments separated
    /// from it (and from each other) by no blank line — or the token's own start when there
    /// are none. `docCommentsOnly` stops at the first ordinary `//` or `/* */` comment.
    func attachedCommentStart(docCommentsOnly: Bool) -> Int {
        var offset = positionAfterSkippingLeadingTrivia.utf8Offset
        var start = offset
        var newlines = 0
        for piece in leadingTrivia.pieces.reversed() {
            offset -= piece.sourceLength.utf8Length
            switch piece {
            case .spaces, .tabs, .carriageReturns:
                continue
            case .newlines(let count), .carriageReturnLineFeeds(let count):
                newlines += count
                if newlines > 1 { return start }
            case .docLineComment, .docBlockComment:
                start = offset
                newlines = 0
            case .lineComment where !docCommentsOnly, .blockComment where !docCommentsOnly:
                start = offset
                newlines = 0
            default:
                return start
            }
        }
        return start
    }
}
