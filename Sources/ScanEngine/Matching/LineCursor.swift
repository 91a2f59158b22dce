import CByteSearch

/// Turns ascending byte offsets into 1-based lines, counting newlines (sixteen bytes at a time)
/// only between one query and the next, so a buffer with no matches costs nothing and one with
/// matches is walked once. A smaller offset than the last one restarts from the top.
package struct LineCursor {
    private let bytes: UnsafeRawBufferPointer
    private var line = 1
    /// Start of `line`.
    private var start = 0
    /// No newline lies in `start..<scanned`.
    private var scanned = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The 1-based line holding `offset`.
    package mutating func line(of offset: Int) -> Int {
        move(to: offset)
        return line
    }

    /// The offset where the line holding `offset` starts.
    package mutating func lineStart(containing offset: Int) -> Int {
        move(to: offset)
        return start
    }

    private mutating func move(to offset: Int) {
        if offset < start { (line, start, scanned) = (1, 0, 0) }
        let from = max(scanned, start)
        let end = min(offset, bytes.count)
        if end > from, let base = bytes.baseAddress {
            var last = 0
            let newlines = shipcheck_count_byte(base + from, end - from, UInt8(ascii: "\n"), &last)
            if newlines > 0 {
                line += newlines
                start = from + last + 1
            }
        }
        scanned = max(from, offset)
    }
}
