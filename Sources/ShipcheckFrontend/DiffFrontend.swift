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

    static func releaseDiffRun(configuration: Configuration, architecture: String? = nil) -> ReleaseDiffRun {
        let inspector = artifactInspector(configuration: configuration, architecture: architecture)
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
        architecture: String?
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
        let run = releaseDiffRun(configuration: configuration, architecture: architecture).run(
            old: previous, new: paths[0])
        return CheckResult(
            findings: run.newFindings + run.previousReleaseFindings, inputErrors: run.inputErrors, filesScanned: 2)
    }
}
