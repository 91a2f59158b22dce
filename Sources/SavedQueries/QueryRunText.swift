import Foundation
import ScanEngine
import ShipcheckCore

/// The text report of `shipcheck query run`, written as the run goes, in one of two layouts:
/// with headings, per query its matches grouped by file with line, column and the matched
/// line, then what is new and gone since the previous run; without, a search result — one
/// `path:line:col:matched line` line per match (`rg --vimgrep`'s form, which editors' quickfix
/// lists read), prefixed with `name:` when several queries run, and nothing else (the counts
/// are `summary(_:)`, for standard error). The first query's section goes straight to the
/// output; the others' are held in temporary files (`ByteSpool`) and copied after it, so the
/// report keeps its order without holding matches in memory.
package final class QueryRunText: Sendable {
    private let output: ByteOutput
    private let color: Bool
    private let heading: Bool
    /// One per query: the output itself for the first, a spool for each other.
    private let sections: [ByteOutput]
    private let spools: [ByteSpool]

    package init(queries: [ScopedQuery], output: ByteOutput, color: Bool, heading: Bool) throws(InputError) {
        self.output = output
        self.color = color
        self.heading = heading
        var spools: [ByteSpool] = []
        for _ in queries.dropFirst() { spools.append(try ByteSpool()) }
        self.spools = spools
        sections = (queries.isEmpty ? [] : [output]) + spools.map(\.output)
        guard heading else { return }
        for (scoped, section) in zip(queries, sections) {
            let query = scoped.query
            var traits = [query.kind.rawValue, scoped.scope.rawValue]
            if query.expectNone { traits.append("expect: none") }
            var header = paint(query.name, .heading) + " (\(traits.joined(separator: ", ")))"
            if !query.description.isEmpty { header += " — \(FileEnumerator.escaped(query.description))" }
            section.write(header + "\n")
        }
    }

    /// One file's lines (`lines(of:color:heading:)`) of query `query`.
    package func write(query: Int, _ lines: [UInt8]) {
        sections[query].write(lines)
    }

    /// How a query's matches are written, in the layout and colour of the report.
    struct Layout: Sendable {
        let color: Bool
        let heading: Bool
        /// Without headings, what starts each of the query's lines before the path: its name and
        /// a colon when the run has several queries, else nothing.
        let lineStart: String

        /// `named`: whether lines without headings say which query matched.
        init(query: ScopedQuery, color: Bool, heading: Bool, named: Bool = false) {
            self.color = color
            self.heading = heading
            lineStart = named ? query.query.name + ":" : ""
        }
    }

    /// One file's lines of the report, written from the file's bytes: with headings the path,
    /// then each match's `line:col` and line; without, `path:line:col:line` per match.
    struct FileLines {
        private let layout: Layout
        /// With headings, the path's line; without, the start of every line.
        private let lead: [UInt8]
        private var started = false

        init(layout: Layout, path: String) {
            self.layout = layout
            let escaped = FileEnumerator.escaped(path)
            lead = Array(
                (layout.heading
                    ? "  " + TextColour.path.paint(escaped, if: layout.color) + "\n" : layout.lineStart + escaped + ":")
                    .utf8)
        }

        mutating func append(_ place: MatchPlace, lineText: borrowing ByteView, to out: inout [UInt8]) {
            guard layout.heading else {
                out += lead
                out.appendDecimal(place.line)
                out.append(UInt8(ascii: ":"))
                out.appendDecimal(place.column)
                out.append(UInt8(ascii: ":"))
                QueryRunText.appendCapped(lineText, match: place.matchInText, color: layout.color, to: &out)
                out.append(UInt8(ascii: "\n"))
                return
            }
            if !started {
                out += lead
                started = true
            }
            out += "    ".utf8
            if layout.color { out += TextColour.place.start.utf8 }
            out.appendDecimal(place.line)
            out.append(UInt8(ascii: ":"))
            out.appendDecimal(place.column)
            if layout.color { out += TextColour.reset.utf8 }
            out += "  ".utf8
            QueryRunText.appendHighlighted(lineText, match: place.matchInText, color: layout.color, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// With headings, each query's summary and comparison, the sections in order, and the
    /// closing line; without, the sections in order.
    package func finish(_ refreshes: [QueryRefresh]) throws(InputError) {
        guard heading else {
            for spool in spools { try spool.copy(into: output) }
            try output.flush()
            return
        }
        for (refresh, section) in zip(refreshes, sections) {
            var out: [String] = []
            var summary = "  " + Self.counts(refresh)
            if refresh.failsGate { summary += "; " + paint("FAILED: expected no matches", .error) }
            out.append(summary)
            out.append("  " + Self.comparison(refresh))
            for finding in refresh.new {
                out.append(
                    "    " + paint("new ", .added)
                        + " \(FileEnumerator.escaped(finding.location.path)):\(finding.location.line ?? 0)  \(Self.clipped(finding.snippet ?? ""))"
                )
            }
            for entry in refresh.gone {
                out.append(
                    "    " + paint("gone", .match)
                        + " \(FileEnumerator.escaped(entry.path)):\(entry.line)  \(Self.clipped(entry.lineText))")
            }
            section.write(out.joined(separator: "\n") + "\n\n")
        }
        for spool in spools { try spool.copy(into: output) }
        output.write(Self.closing(refreshes) + "\n")
        try output.flush()
    }

    /// The summary of the one-line-per-match layout, for standard error: per query its counts
    /// and what changed since the last run, then the closing line.
    package static func summary(_ refreshes: [QueryRefresh]) -> String {
        let lines = refreshes.map { refresh in
            var line = "\(refresh.query.query.name): \(counts(refresh)); \(comparison(refresh))"
            if refresh.failsGate { line += "; FAILED: expected no matches" }
            return line
        }
        return (lines + [closing(refreshes)]).joined(separator: "\n")
    }

    /// "3 matches in 2 files (40 searched)", and whether the search was cut short.
    static func counts(_ refresh: QueryRefresh) -> String {
        let count = refresh.matchCount, files = refresh.fileCount
        var text =
            "\(count) match\(count == 1 ? "" : "es") in \(files) file\(files == 1 ? "" : "s") (\(refresh.result.filesSearched) searched)"
        if !refresh.result.isComplete {
            text += "; incomplete: stopped by the timeout or the regex engine's backtracking limit"
        }
        return text
    }

    /// `shipcheck: 2 queries run, 5 matches; gate failed: todos`.
    static func closing(_ refreshes: [QueryRefresh]) -> String {
        let matches = refreshes.reduce(0) { $0 + $1.matchCount }
        let failed = refreshes.filter(\.failsGate).map { $0.query.query.name }
        var closing =
            "shipcheck: \(refreshes.count) quer\(refreshes.count == 1 ? "y" : "ies") run, \(matches) match\(matches == 1 ? "" : "es")"
        if !failed.isEmpty { closing += "; gate failed: " + failed.joined(separator: ", ") }
        return closing
    }

    private func paint(_ text: String, _ colour: TextColour) -> String { colour.paint(text, if: color) }

    /// "since last run (…): 2 new, 1 gone" or why there is nothing to compare with.
    static func comparison(_ refresh: QueryRefresh) -> String {
        if let problem = refresh.previousProblem {
            return "the previous run's state could not be read (\(problem)): not compared"
        }
        guard let previous = refresh.previous else { return "first run: nothing to compare with" }
        let when = timestamp(previous.ranAt)
        guard refresh.comparable else { return "query changed since the last run (\(when)): not compared" }
        if refresh.new.isEmpty && refresh.gone.isEmpty { return "since last run (\(when)): no change" }
        return "since last run (\(when)): \(refresh.new.count) new, \(refresh.gone.count) gone"
    }

    /// `2026-11-22 05:30 UTC`; a time no clock gives (a damaged state's) as "an unreadable
    /// time". By `gmtime_r`, not `DateFormatter`, whose first use starts ICU, a noticeable part
    /// of a selective query's run (docs/performance.md, "Timestamps without `DateFormatter`").
    package static func timestamp(_ seconds: Double) -> String {
        // From 1970 to the end of 9999: what a `time_t` holds everywhere and four digits show.
        guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else { return "an unreadable time" }
        guard let parts = SystemCalls.utcCalendar(time_t(seconds)) else { return "an unreadable time" }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.year)-\(twoDigits(parts.month))-\(twoDigits(parts.day)) \(twoDigits(parts.hour)):\(twoDigits(parts.minute)) UTC"
    }

    static let maximumLineLength = 300

    /// The line with its match in bold red (when colouring), long lines clipped.
    static func highlighted(_ line: String, from column: Int, to endColumn: Int, color: Bool) -> String {
        let bytes = Array(line.utf8)
        guard color, column >= 1, endColumn - 1 <= bytes.count, column < endColumn else { return clipped(line) }
        let before = String(lossyUTF8: bytes[..<(column - 1)])
        let match = String(lossyUTF8: bytes[(column - 1)..<(endColumn - 1)])
        let after = String(lossyUTF8: bytes[(endColumn - 1)...])
        return clipped(before) + TextColour.match.paint(match, if: true) + clipped(after)
    }

    /// `highlighted` from a line's bytes, the match at `match` within them: byte by byte for
    /// ASCII without CR (where every byte is one Character), else through the string.
    static func appendHighlighted(_ line: borrowing ByteView, match: Range<Int>, color: Bool, to out: inout [UInt8]) {
        guard line.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else {
            out += highlighted(line.string(), from: match.lowerBound + 1, to: match.upperBound + 1, color: color).utf8
            return
        }
        guard color, !match.isEmpty else { return appendClipped(line, to: &out) }
        line.withSlice(0..<match.lowerBound) { appendClipped($0, to: &out) }
        out += TextColour.match.start.utf8
        out.append(bytes: line, match)
        out += TextColour.reset.utf8
        line.withSlice(match.upperBound..<line.count) { appendClipped($0, to: &out) }
    }

    static func clipped(_ text: String) -> String {
        let flat = FileEnumerator.escaped(text)
        guard flat.utf8.count > maximumLineLength else { return flat }  // then no more Characters either
        return flat.count > maximumLineLength ? String(flat.prefix(maximumLineLength)) + "…" : flat
    }

    /// A matched line as a search result shows it: its bytes as they are (tabs, any encoding),
    /// cut after `maximumLineLength` bytes at a character boundary (then `…`), the match in
    /// bold red when colouring.
    static func appendCapped(_ line: borrowing ByteView, match: Range<Int>, color: Bool, to out: inout [UInt8]) {
        var end = line.count
        if end > maximumLineLength {
            end = maximumLineLength
            while end > 0, line[end] & 0xC0 == 0x80 { end -= 1 }
        }
        let shown = match.clamped(to: 0..<end)
        if color && !shown.isEmpty {
            out.append(bytes: line, 0..<shown.lowerBound)
            out += TextColour.match.start.utf8
            out.append(bytes: line, shown)
            out += TextColour.reset.utf8
            out.append(bytes: line, shown.upperBound..<end)
        } else {
            out.append(bytes: line, 0..<end)
        }
        if end < line.count { out += "…".utf8 }
    }

    /// `clipped` of ASCII text without CR: tabs and newlines escaped, at most
    /// `maximumLineLength` bytes (an escape cut in two as `String.prefix` cuts it).
    private static func appendClipped(_ text: borrowing ByteView, to out: inout [UInt8]) {
        let escapes = { (byte: UInt8) in byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") }
        if text.count <= maximumLineLength, text.allSatisfy({ !escapes($0) }) {
            out.append(bytes: text)
            return
        }
        var written = 0
        for index in text.indices {
            let byte = text[index]
            let escaped = escapes(byte)
            if written + (escaped ? 2 : 1) > maximumLineLength {
                // Half an escape, as String.prefix cuts it.
                if written < maximumLineLength { out.append(UInt8(ascii: "\\")) }
                out += "…".utf8
                return
            }
            if escaped {
                out.append(UInt8(ascii: "\\"))
                out.append(byte == UInt8(ascii: "\t") ? UInt8(ascii: "t") : UInt8(ascii: "n"))
                written += 2
            } else {
                out.append(byte)
                written += 1
            }
        }
    }
}
