import ScanEngine

/// The text report, in one of two layouts (as ripgrep's `--heading` / `--no-heading`):
/// - lines (what pipes, editors, `xargs`, `cut` and Xcode's issue parser read): one
///   compiler-style line per finding, `path:line:col: error: message [rule-id]` (the
///   finding's `lineMessage` when it has one), nothing else;
///   the summary is `summary(_:)`, which the command line prints to standard error;
/// - heading (for a person at a terminal): findings grouped under their file's name, each with
///   its `line:col`, snippet and fix, then the summary.
/// With `verbose`, a finding standing for many (`Finding.related`) lists every one: a `note:`
/// line each in the lines layout, indented under it in the heading layout.
package struct TextReporter: Reporter {
    package var color: Bool
    package var heading: Bool
    package var verbose: Bool

    package init(color: Bool, heading: Bool = true, verbose: Bool = false) {
        self.color = color
        self.heading = heading
        self.verbose = verbose
    }

    package func write(_ report: Report, to sink: ReportSink) {
        guard heading else {
            for finding in report.findings {
                sink.write(line(finding) + "\n")
                if verbose { for item in related(finding) { sink.write(line(item) + "\n") } }
            }
            return
        }
        var lastFile: String?
        for finding in report.findings {
            var lines: [String] = []
            let (file, place) = Self.split(finding.location)
            if file != lastFile {
                if lastFile != nil { lines.append("") }
                lines.append(paint(file, .path))
                lastFile = file
            }
            lines.append("  " + (place.map { paint($0, .place) + ": " } ?? "") + diagnostic(finding))
            if let snippet = finding.snippet, !snippet.isEmpty {
                for line in snippet.split(separator: "\n", omittingEmptySubsequences: false).prefix(6) {
                    lines.append("      " + String(line))
                }
            }
            if let hint = finding.fixHint { lines.append("      " + paint("fix: ", .fix) + hint) }
            if verbose {
                for item in related(finding) {
                    let (_, place) = Self.split(item.location)
                    lines.append(
                        "      " + (place.map { paint($0, .place) + ": " } ?? "") + FileEnumerator.escaped(item.message)
                    )
                }
            }
            sink.write(lines.map { $0 + "\n" }.joined())
        }
        sink.write((report.findings.isEmpty ? "" : "\n") + summary(report) + "\n")
    }

    /// `path:line:col: error: message [rule-id]`; a place with no line is `path: error: …`, a
    /// place in a binary `path[arch](member):section:0xoffset: error: …`.
    package func line(_ finding: Finding) -> String {
        let (file, place) = Self.split(finding.location)
        return file + (place.map { ":" + $0 } ?? "") + ": "
            + diagnostic(finding, message: finding.lineMessage ?? finding.message)
    }

    /// Each occurrence behind a grouped finding, as a note of the same rule.
    private func related(_ finding: Finding) -> [Finding] {
        (finding.related ?? []).map {
            Finding(ruleID: finding.ruleID, severity: .note, message: $0.message, location: $0.location)
        }
    }

    /// The file (escaped, with a binary's slice and archive member) and the place in it
    /// (`line:col`, or `section:0xoffset`), when there is one.
    static func split(_ location: Location) -> (file: String, place: String?) {
        switch location {
        case .source(let location):
            return (FileEnumerator.escaped(location.path), "\(location.line):\(location.column)")
        case .file(let path):
            return (FileEnumerator.escaped(path), nil)
        case .binary(let location):
            let file =
                FileEnumerator.escaped(location.path) + (location.architecture.map { "[\($0)]" } ?? "")
                + (location.member.map { "(\($0))" } ?? "")
            var parts: [String] = []
            if let section = location.section { parts.append(section) }
            if let offset = location.offset { parts.append("0x" + String(offset, radix: 16)) }
            return (file, parts.isEmpty ? nil : parts.joined(separator: ":"))
        }
    }

    /// `error: message [rule-id]`: what follows the place on a finding's line.
    package func diagnostic(_ finding: Finding, message: String? = nil) -> String {
        let label: String
        switch finding.severity {
        case .error: label = paint("error", .error)
        case .warning: label = paint("warning", .warning)
        case .note: label = paint("note", .note)
        }
        return "\(label): \(FileEnumerator.escaped(message ?? finding.message)) [\(finding.ruleID)]"
    }

    /// The counts line (after the audit's per-check table).
    package func summary(_ report: Report) -> String {
        let errors = report.count(of: .error), warnings = report.count(of: .warning), notes = report.count(of: .note)
        var parts = [
            "\(errors) error\(errors == 1 ? "" : "s")", "\(warnings) warning\(warnings == 1 ? "" : "s")",
            "\(notes) note\(notes == 1 ? "" : "s")"
        ]
        if !report.inputErrors.isEmpty {
            parts.append("\(report.inputErrors.count) input\(report.inputErrors.count == 1 ? "" : "s") not processed")
        }
        var text = "shipcheck: " + parts.joined(separator: ", ") + report.failures.map { "; " + $0 }.joined()
        if !report.checks.isEmpty { text = CheckTable.render(report.checks) + "\n" + text }
        return text
    }

    private func paint(_ text: String, _ colour: TextColour) -> String { colour.paint(text, if: color) }
}

/// The per-check summary table that ends an audit's text report.
enum CheckTable {
    static func render(_ checks: [CheckSummary]) -> String {
        let header = ["check", "files", "errors", "warnings", "notes", "time"]
        let rows = checks.map { check in
            [
                check.name, "\(check.filesScanned)", "\(check.errors)", "\(check.warnings)", "\(check.notes)",
                formatSeconds(check.seconds)
            ]
        }
        return TextTable.lines([header] + rows).joined(separator: "\n")
    }

    static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}

/// Rows of cells as columns padded to their widest cell: the first column left-aligned, the
/// others (numbers) right-aligned. The audit's check table and the diff's tables.
package enum TextTable {
    package static func lines(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { cells in
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}
