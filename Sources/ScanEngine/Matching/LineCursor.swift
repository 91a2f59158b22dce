/// Turns ascending byte offsets into 1-based lines, counting newlines (sixteen bytes at a time)
/// only between one query and the next, so a buffer with no matches costs nothing and one with
/// matches is walked once. A smaller offset than the last one restarts from the top.
///
/// The cursor keeps positions only; each query is given the same bytes (`ByteView`s are lent,
/// not kept).
package struct LineCursor {
    private var line = 1
    /// Start of `line`.
    private var start = 0
    /// No newline lies in `start..<scanned`.
    private var scanned = 0

    package init() {}

    /// The 1-based line holding `offset`.
    package mutating func line(of offset: Int, in bytes: borrowing ByteView) -> Int {
        move(to: offset, in: bytes)
        return line
    }

    /// The offset where the line holding `offset` starts.
    package mutating func lineStart(containing offset: Int, in bytes: borrowing ByteView) -> Int {
        move(to: offset, in: bytes)
        return start
    }

    private mutating func move(to offset: Int, in bytes: borrowing ByteView) {
        if offset < start { (line, start, scanned) = (1, 0, 0) }
        let from = max(scanned, start)
        let end = min(offset, bytes.count)
        if end > from {
            let newlines = bytes.count(of: UInt8(ascii: "\n"), in: from..<end)
            if newlines.count > 0 {
                line += newlines.count
                start = from + newlines.lastOffset + 1
            }
        }
        scanned = max(from, offset)
    }
}
