import AndroidArtifacts
import BinaryInspect
import ReleaseDiff
import ScanEngine
import ShipcheckCore

extension Frontend {
    /// What `shipcheck diff` prints: the comparison (nil when a side could not be read) and the
    /// report of the previous-release rules' findings and the new release's new findings.
    package struct DiffOutcome: Sendable {
        package var run: ReleaseDiffRun.Outcome
        package var report: Report
    }

    /// `shipcheck diff OLD NEW`.
    package static func diff(
        old: String, new: String, configuration: Configuration, failingSeverity: Severity
    ) -> DiffOutcome {
        let run = releaseDiffRun(configuration: configuration).run(old: old, new: new)
        let report = Report(
            findings: run.previousReleaseFindings + run.appeared, inputErrors: run.inputErrors,
            rules: artifactRules.descriptions,
            failingSeverity: failingSeverity)
        return DiffOutcome(run: run, report: report)
    }

    /// What `shipcheck diff` prints in `format` besides the input errors: nil when it prints
    /// its report alone, as every subcommand prints one (a format of the reports only — sarif,
    /// junit, github, gitlab — or no comparison, a side being unreadable).
    package struct DiffText: Sendable {
        /// For the output (standard output or `--output`): the comparison, then the report.
        package var output: String
        /// For standard error after it: the counts, when the text report has no headings.
        package var summary: String?
    }

    /// `diff`'s text in `format` (`color`, `heading` and `verbose` as its report takes them):
    /// one line when the two releases are the same (but in JSON); the comparison with the
    /// report in JSON (the comparison's exact byte counts and the report); else the comparison
    /// laid out as text or Markdown, what is gone, and the report in that format.
    package static func diffText(
        _ outcome: DiffOutcome, old: String, new: String, format: ReportFormat, color: Bool, heading: Bool,
        verbose: Bool
    ) -> DiffText? {
        guard let comparison = outcome.run.comparison, [ReportFormat.text, .markdown, .json].contains(format) else {
            return nil
        }
        if comparison.isIdentical && format != .json {
            return DiffText(
                output:
                    "shipcheck diff: \(old) and \(new) are the same release: no differences in what shipcheck compares\n"
            )
        }
        let report = ReportSink.memory()
        if format == .json {
            ReportFormat.json.reporter().write(outcome.report, to: report)
            return DiffText(
                output: ComparisonJSON.render(comparison, gone: outcome.run.gone, reportJSON: report.text))
        }
        let layout: ComparisonPrinter.Layout = format == .markdown ? .markdown : .text
        var output = ComparisonPrinter.render(comparison, layout: layout)
        if !outcome.run.gone.isEmpty { output += ComparisonPrinter.gone(outcome.run.gone, layout: layout) }
        format.reporter(color: color, heading: heading, verbose: verbose).write(outcome.report, to: report)
        return DiffText(
            output: output + "\n" + report.text,
            summary: format == .text && !heading ? TextReporter(color: false).summary(outcome.report) : nil)
    }

    static func releaseDiffRun(
        configuration: Configuration, architecture: String? = nil, source: any FileSource = DiskFileSource()
    ) -> ReleaseDiffRun {
        let inspector = artifactInspector(configuration: configuration, architecture: architecture, source: source)
        return ReleaseDiffRun(
            reader: ReleaseReader(
                inspector: inspector, android: AndroidInspector(configuration: configuration, rules: RuleRegistry.rules)
            ),
            check: PreviousReleaseCheck(configuration: configuration, rules: RuleRegistry.rules),
            configuration: configuration)
    }

    /// `binary` and `audit` with a previous release (`--previous`, else the configuration's
    /// `previous:`, relative to `root`): the one release artifact among `paths` read and checked
    /// with the previous one, its findings re-judged against it and the previous-release rules'
    /// added. Nil without a previous release; an input error unless `paths` is one artifact.
    static func checkedAgainstPrevious(
        _ paths: [String], previous option: String?, root: String, configuration: Configuration,
        architecture: String?, source: any FileSource = DiskFileSource()
    ) -> CheckResult? {
        guard
            let previous = option
                ?? configuration.settings(PreviousReleaseSettings.self).previous.map({
                    root == "." || $0.hasPrefix("/") ? $0 : "\(root)/\($0)"
                })
        else { return nil }
        guard paths.count == 1 else {
            return CheckResult(inputErrors: [
                InputError(
                    path: previous,
                    message:
                        "a previous release is compared with one release artifact, and \(paths.count) are given (\(paths.joined(separator: ", ")))"
                )
            ])
        }
        let run = releaseDiffRun(configuration: configuration, architecture: architecture, source: source).run(
            old: previous, new: paths[0])
        return CheckResult(
            findings: run.newFindings + run.previousReleaseFindings, inputErrors: run.inputErrors, filesScanned: 2)
    }
}
