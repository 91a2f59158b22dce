/// Turns ascending byte offsets into 1-based lines, counting newlines (memchr) only between
/// one query and the next, so a buffer with no matches costs nothing and one with matches is
/// walked once. A smaller offset than the last one restarts from the top.
public struct LineCursor {
    private let bytes: UnsafeRawBufferPointer
    private var line = 1
    /// Start of `line`.
    private var start = 0
    /// No newline lies in `start..<scanned`.
    private var scanned = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The 1-based line holding `offset`.
    public mutating func line(of offset: Int) -> Int {
        move(to: offset)
        return line
    }

    /// The offset where the line holding `offset` starts.
    public mutating func lineStart(containing offset: Int) -> Int {
        move(to: offset)
        return start
    }

    private mutating func move(to offset: Int) {
        if offset < start { (line, start, scanned) = (1, 0, 0) }
        var from = max(scanned, start)
        while let newline = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: from), newline < offset {
            line += 1
            start = newline + 1
            from = start
        }
        scanned = max(from, offset)
    }
}
