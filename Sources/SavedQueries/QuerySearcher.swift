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

/// One query's search of a buffer: its pattern through `Matcher`, each match with its line.
struct QuerySearcher: Sendable {
    let matcher: Matcher

    init(_ query: SavedQuery) throws(PatternError) {
        matcher = try Matcher(query.matchPattern, origin: "query '\(query.name)'")
    }

    var wantsFoldedBuffer: Bool { matcher.wantsFoldedBuffer }

    /// All matches in `bytes`, in order; `cutShort` when the deadline stopped the search.
    /// `folded` is `Matcher.folded(bytes)` when `wantsFoldedBuffer`, else unused.
    func search(_ bytes: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer, deadline: Deadline) -> (matches: [QueryMatch], cutShort: Bool) {
        let found = matcher.matches(in: bytes, folded: folded, deadline: deadline)
        var lines = LineCursor(bytes)
        return (found.ranges.map { Self.match($0, in: bytes, lines: &lines) }, found.cutShort)
    }

    /// The most of a line a match keeps: a minified or generated file can be one 200 MB line,
    /// and every match would copy all of it into the report, the last-run state and its
    /// fingerprint. A longer line is cut to this many bytes around the match.
    static let maximumLineTextBytes = 1024

    /// The match for byte `range`, with its 1-based line, columns and line text.
    static func match(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer, lines: inout LineCursor) -> QueryMatch {
        let lineStart = lines.lineStart(containing: range.lowerBound)
        var end = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: range.lowerBound) ?? bytes.count
        if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var textStart = lineStart, textEnd = max(lineStart, end)
        if textEnd - textStart > maximumLineTextBytes {
            textStart = max(lineStart, range.lowerBound - maximumLineTextBytes / 4)
            textEnd = min(textEnd, textStart + maximumLineTextBytes)
        }
        let text = String(lossyUTF8: UnsafeRawBufferPointer(rebasing: bytes[textStart..<textEnd]))
        return QueryMatch(line: lines.line(of: range.lowerBound), column: range.lowerBound - lineStart + 1,
                          endColumn: range.upperBound - lineStart + 1, lineText: text)
    }
}

extension SavedQuery {
    /// What the query searches for, as the matcher takes it.
    var matchPattern: MatchPattern {
        MatchPattern(pattern, kind: kind == .regex ? .regex : .literal, caseInsensitive: !caseSensitive, wholeWord: wholeWord)
    }
}
