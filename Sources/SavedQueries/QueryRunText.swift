import Foundation
import ShipcheckCore

/// The text report of `shipcheck query run`: per query, matches grouped by file with line,
/// column and the matched line, then what is new and gone since the previous run.
public enum QueryRunText {
    public static func render(_ refreshes: [QueryRefresh], color: Bool) -> String {
        var out: [String] = []
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        for refresh in refreshes {
            let scoped = refresh.result.query
            let query = scoped.query
            var traits = [query.kind.rawValue, scoped.scope.rawValue]
            if query.expectNone { traits.append("expect: none") }
            var header = paint(query.name, "1") + " (\(traits.joined(separator: ", ")))"
            if !query.description.isEmpty { header += " — \(FileEnumerator.escaped(query.description))" }
            out.append(header)
            var lastPath = ""
            for finding in refresh.findings {
                guard case .source(let location) = finding.location else { continue }
                if location.path != lastPath {
                    out.append("  " + paint(FileEnumerator.escaped(location.path), "35"))
                    lastPath = location.path
                }
                let text = highlighted(finding.snippet ?? "", from: location.column, to: location.endColumn ?? location.column, color: color)
                out.append("    \(paint("\(location.line):\(location.column)", "32"))  \(text)")
            }
            var summary = "  " + counts(refresh)
            if refresh.failsGate { summary += "; " + paint("FAILED: expected no matches", "1;31") }
            out.append(summary)
            out.append("  " + comparison(refresh))
            for finding in refresh.new {
                out.append("    " + paint("new ", "1;32") + " \(FileEnumerator.escaped(finding.location.path)):\(finding.location.line ?? 0)  \(clipped(finding.snippet ?? ""))")
            }
            for entry in refresh.gone {
                out.append("    " + paint("gone", "1;31") + " \(FileEnumerator.escaped(entry.path)):\(entry.line)  \(clipped(entry.lineText))")
            }
            out.append("")
        }
        out.append(closing(refreshes))
        return out.joined(separator: "\n") + "\n"
    }

    /// The summary of the one-line-per-match layout, for standard error: per query its counts
    /// and what changed since the last run, then the closing line.
    public static func summary(_ refreshes: [QueryRefresh]) -> String {
        let lines = refreshes.map { refresh in
            var line = "\(refresh.result.query.query.name): \(counts(refresh)); \(comparison(refresh))"
            if refresh.failsGate { line += "; FAILED: expected no matches" }
            return line
        }
        return (lines + [closing(refreshes)]).joined(separator: "\n")
    }

    /// "3 matches in 2 files (40 searched)", and whether the timeout cut the search short.
    static func counts(_ refresh: QueryRefresh) -> String {
        let count = refresh.findings.count
        let files = Set(refresh.findings.map(\.location.path)).count
        var text = "\(count) match\(count == 1 ? "" : "es") in \(files) file\(files == 1 ? "" : "s") (\(refresh.result.filesSearched) searched)"
        if !refresh.result.isComplete { text += "; incomplete: stopped by the timeout" }
        return text
    }

    /// `shipcheck: 2 queries run, 5 matches; gate failed: todos`.
    static func closing(_ refreshes: [QueryRefresh]) -> String {
        let matches = refreshes.reduce(0) { $0 + $1.findings.count }
        let failed = refreshes.filter(\.failsGate).map { $0.result.query.query.name }
        var closing = "shipcheck: \(refreshes.count) quer\(refreshes.count == 1 ? "y" : "ies") run, \(matches) match\(matches == 1 ? "" : "es")"
        if !failed.isEmpty { closing += "; gate failed: " + failed.joined(separator: ", ") }
        return closing
    }

    /// "since last run (…): 2 new, 1 gone" or why there is nothing to compare with.
    static func comparison(_ refresh: QueryRefresh) -> String {
        guard let previous = refresh.previous else { return "first run: nothing to compare with" }
        let when = timestamp(previous.ranAt)
        guard refresh.comparable else { return "query changed since the last run (\(when)): not compared" }
        if refresh.new.isEmpty && refresh.gone.isEmpty { return "since last run (\(when)): no change" }
        return "since last run (\(when)): \(refresh.new.count) new, \(refresh.gone.count) gone"
    }

    /// `2026-11-22 05:30 UTC`.
    public static func timestamp(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static let maximumLineLength = 300

    /// The line with its match in bold red (when colouring), long lines clipped.
    static func highlighted(_ line: String, from column: Int, to endColumn: Int, color: Bool) -> String {
        let bytes = Array(line.utf8)
        guard color, column >= 1, endColumn - 1 <= bytes.count, column < endColumn else { return clipped(line) }
        let before = String(lossyUTF8: bytes[..<(column - 1)])
        let match = String(lossyUTF8: bytes[(column - 1)..<(endColumn - 1)])
        let after = String(lossyUTF8: bytes[(endColumn - 1)...])
        return clipped(before) + "\u{1B}[1;31m\(match)\u{1B}[0m" + clipped(after)
    }

    static func clipped(_ text: String) -> String {
        let flat = FileEnumerator.escaped(text)
        return flat.count > maximumLineLength ? String(flat.prefix(maximumLineLength)) + "…" : flat
    }
}
