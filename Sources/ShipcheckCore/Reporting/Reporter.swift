/// Renders a report in one output format. Reporters are pure: report in, bytes out.
package protocol Reporter: Sendable {
    func render(_ report: Report) -> String
}

/// The `--format` values.
package enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, junit, github, gitlab

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
        }
    }
}
