/// Writes a report in one output format into the command's sink, as it is made: a finding at
/// a time where the format allows, never the whole text held first.
package protocol Reporter: Sendable {
    func write(_ report: Report, to sink: ReportSink)
}

/// The `--format` values.
package enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, junit, github, gitlab, markdown

    /// The reporter for this format. `color`, `heading` and `verbose` (see `TextReporter`)
    /// only matter for `text`.
    package func reporter(color: Bool = false, heading: Bool = true, verbose: Bool = false) -> any Reporter {
        switch self {
        case .text: TextReporter(color: color, heading: heading, verbose: verbose)
        case .json: JSONReporter()
        case .sarif: SARIFReporter()
        case .junit: JUnitReporter()
        case .github: GitHubReporter()
        case .gitlab: GitLabReporter()
        case .markdown: MarkdownReporter()
        }
    }
}
