import ShipcheckCore

/// One match: where it is and the line it is on.
public struct QueryMatch: Sendable, Hashable, Codable {
    public var line: Int
    /// 1-based UTF-8 byte columns; `endColumn` is one past the last matched byte.
    public var column: Int
    public var endColumn: Int
    /// The matched line, without its terminator.
    public var lineText: String
}

/// How one query looks for matches in a buffer: memmem for literal text, and for regular
/// expressions memmem for a required literal followed by the regex on candidate lines only.
struct QuerySearcher: Sendable {
    private enum Strategy: Sendable {
        /// `needle` is ASCII-lowercased when `foldCase`: searched in the folded buffer.
        case literal(needle: [UInt8], foldCase: Bool, wholeWord: Bool)
        case regex(CompiledRegex, prefilter: [[UInt8]]?, foldCase: Bool)
    }

    private let strategy: Strategy

    init(_ query: SavedQuery) throws(PatternError) {
        let foldCase = !query.caseSensitive
        if query.kind == .literal, !foldCase || query.pattern.utf8.allSatisfy({ $0 < 0x80 }) {
            let needle = Array(query.pattern.utf8)
            strategy = .literal(needle: foldCase ? needle.map(Self.asciiLowercased) : needle, foldCase: foldCase, wholeWord: query.wholeWord)
            return
        }
        // A regex, or a literal needing Unicode case folding (ICU does that; memmem cannot).
        let regex = try CompiledRegex(query)
        // A literal needing Unicode folding gets no prefilter: its ASCII folding is not exact.
        let literals = query.kind == .literal ? nil : RequiredLiteral.extract(from: query.pattern, caseInsensitive: foldCase)
        let prefilter = literals?.map { Array($0.utf8).map { foldCase ? Self.asciiLowercased($0) : $0 } }
        strategy = .regex(regex, prefilter: prefilter, foldCase: foldCase)
    }

    /// Whether this search wants the ASCII-lowercased copy of the buffer.
    var wantsFoldedBuffer: Bool {
        switch strategy {
        case .literal(_, let foldCase, _): foldCase
        case .regex(_, let prefilter, let foldCase): foldCase && prefilter != nil
        }
    }

    /// All matches in `bytes`, in order; `cutShort` when the deadline stopped the search.
    /// `folded` is the ASCII-lowercased buffer when `wantsFoldedBuffer`, else unused.
    func search(_ bytes: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer, deadline: Deadline) -> (matches: [QueryMatch], cutShort: Bool) {
        var lines = LineCursor(bytes)
        var matches: [QueryMatch] = []
        switch strategy {
        case .literal(let needle, let foldCase, let wholeWord):
            let haystack = foldCase ? folded : bytes
            needle.withUnsafeBytes { needle in
                var position = 0
                while let hit = ByteSearch.find(needle, in: haystack, from: position) {
                    let end = hit + needle.count
                    if wholeWord && (Self.isWordByte(before: hit, in: bytes) || Self.isWordByte(at: end, in: bytes)) {
                        position = hit + 1
                        continue
                    }
                    matches.append(lines.match(hit..<end))
                    position = end
                }
            }
            return (matches, false)
        case .regex(let regex, let prefilter, let foldCase):
            var candidates = prefilter.map { CandidateFinder(literals: $0, haystack: foldCase ? folded : bytes) }
            var position = 0
            while position < bytes.count {
                if candidates != nil {
                    guard let hit = candidates!.next(from: position) else { break }
                    position = lines.lineStart(containing: hit)
                }
                if deadline.hasPassed { return (matches, true) }
                let lineEnd = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: position) ?? bytes.count
                var contentEnd = lineEnd
                if contentEnd > position, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
                let found = regex.matches(inLine: UnsafeRawBufferPointer(rebasing: bytes[position..<contentEnd]), deadline: deadline)
                for range in found.ranges { matches.append(lines.match((position + range.lowerBound)..<(position + range.upperBound))) }
                if found.cutShort { return (matches, true) }
                position = lineEnd + 1
            }
            return (matches, false)
        }
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Word bytes for whole-word matching: ASCII letters, digits, `_`, and any byte of a
    /// non-ASCII UTF-8 sequence (letters in most scripts).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte.isASCIILetter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }

    private static func isWordByte(before offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        offset > 0 && isWordByte(bytes[offset - 1])
    }

    private static func isWordByte(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        offset < bytes.count && isWordByte(bytes[offset])
    }
}

/// The earliest occurrence of any of several literals, remembering each literal's next
/// hit so the buffer is scanned once per literal, not once per candidate.
struct CandidateFinder {
    private let literals: [[UInt8]]
    private let haystack: UnsafeRawBufferPointer
    /// Per literal: its next hit at or after `searchedFrom`, or nil when there is none.
    private var nextHits: [Int?]
    private var searchedFrom: [Int]

    init(literals: [[UInt8]], haystack: UnsafeRawBufferPointer) {
        self.literals = literals
        self.haystack = haystack
        nextHits = Array(repeating: nil, count: literals.count)
        searchedFrom = Array(repeating: -1, count: literals.count)
    }

    mutating func next(from position: Int) -> Int? {
        var best: Int?
        for index in literals.indices {
            if searchedFrom[index] < 0 || (nextHits[index].map { $0 < position } ?? false) {
                nextHits[index] = literals[index].withUnsafeBytes { ByteSearch.find($0, in: haystack, from: position) }
                searchedFrom[index] = position
            }
            if let hit = nextHits[index], hit < best ?? Int.max { best = hit }
        }
        return best
    }
}

/// Tracks line numbers while a search moves forward through a buffer, counting newlines
/// with memchr only between consecutive hits (no line table for files without matches).
struct LineCursor {
    private let bytes: UnsafeRawBufferPointer
    private var line = 1
    private var start = 0
    /// Newlines before this offset are counted.
    private var counted = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Moves to the line holding `offset` (never backwards) and returns its start.
    mutating func lineStart(containing offset: Int) -> Int {
        while let newline = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: counted), newline < offset {
            line += 1
            start = newline + 1
            counted = newline + 1
        }
        counted = max(counted, offset)
        return start
    }

    /// The most of a line a match keeps: a minified or generated file can be one 200 MB line,
    /// and every match would copy all of it into the report, the last-run state and its
    /// fingerprint. A longer line is cut to this many bytes around the match.
    static let maximumLineTextBytes = 1024

    /// The match for byte `range`, with its 1-based line, columns and line text.
    mutating func match(_ range: Range<Int>) -> QueryMatch {
        let lineStart = lineStart(containing: range.lowerBound)
        var end = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: range.lowerBound) ?? bytes.count
        if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var textStart = lineStart, textEnd = max(lineStart, end)
        if textEnd - textStart > Self.maximumLineTextBytes {
            textStart = max(lineStart, range.lowerBound - Self.maximumLineTextBytes / 4)
            textEnd = min(textEnd, textStart + Self.maximumLineTextBytes)
        }
        let text = String(lossyUTF8: UnsafeRawBufferPointer(rebasing: bytes[textStart..<textEnd]))
        return QueryMatch(line: line, column: range.lowerBound - lineStart + 1,
                          endColumn: range.upperBound - lineStart + 1, lineText: text)
    }
}
