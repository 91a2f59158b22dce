import BinaryInspect
import ConflictScan
import ReleaseAudit
import SavedQueries
import ShipcheckCore
import SourceScan

extension Frontend {
    /// `shipcheck audit`'s checks, in the order of its summary table: all but the binaries
    /// share one scan of `root`; the binaries are the configuration's `binaries` globs and
    /// `extraBinaries` (only their `architecture` slice, when given).
    public static func auditChecks(root: String, configuration: Configuration, extraBinaries: [String] = [], architecture: String? = nil,
                                   source: any FileSource = DiskFileSource()) -> [any FileCheck] {
        let rules = RuleRegistry.rules
        return [
            SourceRulesCheck(rules: rules, configuration: configuration),
            ConflictCheck(rules: rules, configuration: configuration),
            SavedQueries.gates(root: root, configuration: configuration, source: source),
            BuildSettingsCheck(rules: rules, configuration: configuration),
            ArchiveBreakerCheck(configuration: configuration),
            PrivacyDeclarationsCheck(configuration: configuration),
            BinariesCheck(root: root, configuration: configuration, extraBinaries: extraBinaries, architecture: architecture, rules: rules),
        ]
    }

    /// `shipcheck audit`: every check in one scan, one report with the summary table. With
    /// `writeBaseline`, the findings are recorded there instead of reported; with `baseline`,
    /// only findings it does not hold are reported. The configuration (`config`, else the
    /// root's `.shipcheck.yml`), the query store and the baseline are read through the same
    /// source as the scan, so no file is opened twice.
    public static func audit(root: String, config: String? = nil, extraBinaries: [String] = [], architecture: String? = nil, baseline: String? = nil,
                             writeBaseline: String? = nil, failingSeverity: Severity,
                             source base: any FileSource = DiskFileSource(), progress: ScanProgress? = nil) throws(InputError) -> CommandOutcome {
        let source = ReadOnceFileSource(base)
        let configuration = try ConfigurationLoader.load(explicitPath: config, root: root, knownRules: RuleRegistry.ids, source: source)
        let known = baseline.map { path in Result { () throws(InputError) -> Baseline in try Baseline.load(path, source: source) } }
        let outcome = ScanPipeline(root: root, configuration: configuration, source: source, progress: progress)
            .run(auditChecks(root: root, configuration: configuration, extraBinaries: extraBinaries, architecture: architecture, source: source))
        let result = outcome.combined
        var findings = result.findings
        if let writeBaseline {
            try Baseline(findings: findings).write(to: writeBaseline)
            let recorded = "recorded \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(writeBaseline)"
            return CommandOutcome(messages: [recorded] + result.inputErrors.map(\.description), notes: result.notes,
                                  exitCode: result.inputErrors.isEmpty ? ExitStatus.clean : ExitStatus.inputError)
        }
        var inputErrors = result.inputErrors
        var messages: [String] = []
        if let baseline, let known {
            do throws(InputError) {
                let fresh = try known.get().newFindings(in: findings)
                let left = findings.count - fresh.count
                if left > 0 { messages.append("\(left) finding\(left == 1 ? "" : "s") in the baseline \(baseline) not reported") }
                findings = fresh
            } catch {
                inputErrors.append(error)
            }
        }
        return CommandOutcome(report: Report(findings: findings, inputErrors: inputErrors, rules: RuleRegistry.descriptions,
                                             checks: outcome.checks.map(\.summary), failingSeverity: failingSeverity),
                              messages: messages, notes: result.notes, explanations: result.explanations)
    }
}

/// The audit's release artifacts, as a check of its scan that reads none of the scanned files:
/// the configuration's `binaries` globs (expanded on the file system: build products are
/// usually ignored by git) and the artifacts named on the command line.
final class BinariesCheck: FileCheck {
    let name = "binaries"
    private let root: String
    private let configuration: Configuration
    private let extraBinaries: [String]
    /// Only this slice of universal Mach-O artifacts (`audit --arch`); nil: every slice.
    private let architecture: String?
    private let rules: [any Rule.Type]

    init(root: String, configuration: Configuration, extraBinaries: [String], architecture: String?, rules: [any Rule.Type]) {
        self.root = root
        self.configuration = configuration
        self.extraBinaries = extraBinaries
        self.architecture = architecture
        self.rules = rules
    }

    func finish() -> CheckResult {
        let expanded = ArtifactPaths.expand(configuration.binaries, root: root)
        let paths = expanded.paths + extraBinaries
        guard !paths.isEmpty else { return CheckResult(inputErrors: expanded.errors) }
        var result = BinaryInspector(configuration: configuration, rules: rules, architecture: architecture).run(paths: paths)
        for index in result.findings.indices { result.findings[index].location = result.findings[index].location.relative(to: root) }
        result.inputErrors += expanded.errors
        return result
    }
}
