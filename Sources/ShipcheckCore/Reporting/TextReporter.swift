/// Compiler-style lines, `path:line:col: error: message [rule-id]`, which Xcode build phases,
/// editors and terminals turn into clickable diagnostics; then a summary line.
public struct TextReporter: Reporter {
    public var color: Bool

    public init(color: Bool) { self.color = color }

    public func render(_ report: Report) -> String {
        var lines: [String] = []
        for finding in report.findings {
            lines.append(headline(finding))
            if let snippet = finding.snippet, !snippet.isEmpty {
                for line in snippet.split(separator: "\n", omittingEmptySubsequences: false).prefix(6) {
                    lines.append("    " + String(line))
                }
            }
            if let hint = finding.fixHint { lines.append("    " + paint("fix: ", .cyan) + hint) }
        }
        lines.append(summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    private func headline(_ finding: Finding) -> String {
        let place: String
        switch finding.location {
        case .source(let location): place = "\(escape(location.path)):\(location.line):\(location.column)"
        case .file(let path): place = escape(path)
        case .binary(let location):
            var parts = [escape(location.path) + (location.architecture.map { "[\($0)]" } ?? "") + (location.member.map { "(\($0))" } ?? "")]
            if let section = location.section { parts.append(section) }
            if let offset = location.offset { parts.append("0x" + String(offset, radix: 16)) }
            place = parts.joined(separator: ":")
        }
        let label: String
        switch finding.severity {
        case .error: label = paint("error", .red)
        case .warning: label = paint("warning", .yellow)
        case .note: label = paint("note", .blue)
        }
        return "\(place): \(label): \(escape(finding.message)) [\(finding.ruleID)]"
    }

    private func summary(_ report: Report) -> String {
        let errors = report.count(of: .error), warnings = report.count(of: .warning), notes = report.count(of: .note)
        var parts = ["\(errors) error\(errors == 1 ? "" : "s")", "\(warnings) warning\(warnings == 1 ? "" : "s")", "\(notes) note\(notes == 1 ? "" : "s")"]
        if !report.inputErrors.isEmpty {
            parts.append("\(report.inputErrors.count) input\(report.inputErrors.count == 1 ? "" : "s") not processed")
        }
        var text = "shipcheck: " + parts.joined(separator: ", ")
        if !report.checks.isEmpty { text = CheckTable.render(report.checks) + "\n" + text }
        return text
    }

    /// A newline in a path or message would split a diagnostic into two: keep one per line.
    private func escape(_ text: String) -> String { FileEnumerator.escaped(text) }

    private enum Colour: String { case red = "31", yellow = "33", blue = "34", cyan = "36" }

    private func paint(_ text: String, _ colour: Colour) -> String {
        color ? "\u{1B}[1;\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// The per-check summary table that ends an audit's text report.
enum CheckTable {
    static func render(_ checks: [CheckSummary]) -> String {
        let header = ["check", "files", "errors", "warnings", "notes", "time"]
        let rows = checks.map { check in
            [check.name, "\(check.filesScanned)", "\(check.errors)", "\(check.warnings)", "\(check.notes)", formatSeconds(check.seconds)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
