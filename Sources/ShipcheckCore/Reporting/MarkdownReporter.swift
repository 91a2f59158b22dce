import ScanEngine

/// A report as Markdown, for a pull-request comment or a CI job summary (GitHub's
/// `$GITHUB_STEP_SUMMARY`, a GitLab note), as diffuse-action posts its diffs: the counts, then
/// one table row per finding (severity, rule, place, message), then the inputs not processed.
package struct MarkdownReporter: Reporter {
    package init() {}

    package func write(_ report: Report, to sink: ReportSink) {
        let summary = TextReporter(color: false).summary(report).replacingOccurrences(of: "shipcheck: ", with: "")
        sink.write("#### shipcheck: \(summary)\n")
        if !report.findings.isEmpty {
            sink.write("\n| severity | rule | where | message |\n| --- | --- | --- | --- |\n")
            for finding in report.findings {
                let cells = [
                    finding.severity.rawValue, "`\(finding.ruleID)`", Self.escaped(Self.place(finding.location)),
                    Self.escaped(finding.message)
                ]
                sink.write("| " + cells.joined(separator: " | ") + " |\n")
            }
        }
        if !report.inputErrors.isEmpty {
            sink.write("\nNot processed:\n\n")
            for error in report.inputErrors { sink.write("- \(Self.escaped(error.description))\n") }
        }
    }

    /// `path:line`, or the path and what in a binary (`path (arm64, __TEXT,__text)`).
    static func place(_ location: Location) -> String {
        switch location {
        case .source(let source): "\(source.path):\(source.line)"
        case .binary(let binary):
            binary.path
                + ([binary.architecture, binary.section].compactMap { $0 }.joined(separator: ", ")
                    .nonEmpty.map { " (\($0))" } ?? "")
        case .file(let path): path
        }
    }

    /// Text as a Markdown table cell shows it: pipes, emphasis, code and HTML characters
    /// escaped, line breaks as spaces (a backslash escape cannot carry a line break in a table
    /// row, and the percent-encoding of `GitHubReporter.escapeData` is the runner's, not
    /// Markdown's).
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\n" {
                escaped.append(" ")
                continue
            }
            if "|*_`<>[]\\#".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
