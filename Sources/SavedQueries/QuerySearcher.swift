import ScanEngine
import ShipcheckCore

/// One match: where it is and the line it is on.
package struct QueryMatch: Sendable, Hashable, Codable {
    package var line: Int
    /// 1-based UTF-8 byte columns; `endColumn` is one past the last matched byte.
    package var column: Int
    package var endColumn: Int
    /// The matched line, without its terminator.
    package var lineText: String
}

/// One query's search of a buffer: its pattern through `Matcher`, each match with its line.
struct QuerySearcher: Sendable {
    let matcher: Matcher

    init(_ query: SavedQuery) throws(PatternError) {
        matcher = try Matcher(query.matchPattern, origin: "query '\(query.name)'")
    }

    var wantsFoldedBuffer: Bool { matcher.wantsFoldedBuffer }

    /// All matches in the subject's bytes, in order; `cutShort` when the deadline stopped the
    /// search. Its `folded` is `Matcher.folded(bytes)` when `wantsFoldedBuffer`, else unused.
    func search(_ subject: inout MatchSubject, deadline: Deadline) -> (matches: [QueryMatch], cutShort: Bool) {
        let found = matcher.matches(in: &subject, deadline: deadline)
        let matches = subject.withBytes { bytes in
            var lines = LineCursor()
            return found.ranges.map { range in
                let place = MatchPlace(range, in: bytes, lines: &lines)
                return QueryMatch(
                    line: place.line, column: place.column, endColumn: place.endColumn,
                    lineText: bytes.string(place.text))
            }
        }
        return (matches, found.cutShort)
    }
}

/// Where one match is: its line and columns, and the bytes of its line a report shows.
struct MatchPlace {
    /// 1-based.
    var line: Int
    /// 1-based UTF-8 byte columns in the line; `endColumn` is one past the last matched byte.
    var column: Int
    var endColumn: Int
    /// The line without its terminator, or (`maximumLineTextBytes`) the part around the match.
    var text: Range<Int>
    /// The match within `text` (clipped to it).
    var matchInText: Range<Int>

    /// The most of a line a match keeps: a minified or generated file can be one 200 MB line,
    /// and every match would copy all of it into the report, the last-run state and its
    /// fingerprint. A longer line is cut to this many bytes around the match.
    static let maximumLineTextBytes = 1024

    /// The place of byte `range` (ranges of one buffer come in ascending order to one `lines`).
    init(_ range: Range<Int>, in bytes: borrowing ByteView, lines: inout LineCursor) {
        let lineStart = lines.lineStart(containing: range.lowerBound, in: bytes)
        var end = bytes.firstIndex(of: UInt8(ascii: "\n"), from: range.lowerBound) ?? bytes.count
        if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var textStart = lineStart, textEnd = max(lineStart, end)
        if textEnd - textStart > Self.maximumLineTextBytes {
            textStart = max(lineStart, range.lowerBound - Self.maximumLineTextBytes / 4)
            textEnd = min(textEnd, textStart + Self.maximumLineTextBytes)
        }
        line = lines.line(of: range.lowerBound, in: bytes)
        column = range.lowerBound - lineStart + 1
        endColumn = range.upperBound - lineStart + 1
        text = textStart..<textEnd
        let inText = range.clamped(to: text)
        matchInText = (inText.lowerBound - textStart)..<(inText.upperBound - textStart)
    }
}

extension SavedQuery {
    /// What the query searches for, as the matcher takes it.
    var matchPattern: MatchPattern {
        MatchPattern(
            pattern, kind: kind == .regex ? .regex : .literal, caseInsensitive: !caseSensitive, wholeWord: wholeWord)
    }
}
