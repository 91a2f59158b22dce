import BinaryInspect
import ConflictScan
import ReleaseAudit
import SavedQueries
import ScanEngine
import ShipcheckCore
import SourceScan
import StorePreflight

extension Frontend {
    /// `shipcheck audit`'s checks, in the order of its summary table: all but the binaries
    /// share one scan of `root`; the binaries are the configuration's `binaries` globs and
    /// `extraBinaries` (only their `architecture` slice, when given).
    package static func auditChecks(
        root: String, configuration: Configuration, extraBinaries: [String] = [], architecture: String? = nil,
        previous: String? = nil, source: any FileSource = DiskFileSource()
    ) -> [any FileCheck] {
        let rules = RuleRegistry.rules
        return [
            // The archive-breaker check parses every Swift file holding `#if` whole
            // (`ArchiveFileFacts`): the sources check shares that tree instead of cutting.
            SourceRulesCheck(
                rules: rules, configuration: configuration, parsing: SourceParsing(wholeWhenHolding: ["#if"])),
            ConflictCheck(rules: rules, configuration: configuration),
            SavedQueries.gates(root: root, configuration: configuration, source: source),
            BuildSettingsCheck(rules: rules, configuration: configuration),
            ArchiveBreakerCheck(rules: rules, configuration: configuration),
            PrivacyDeclarationsCheck(rules: rules, configuration: configuration),
            BinariesCheck(
                root: root, configuration: configuration, extraBinaries: extraBinaries, architecture: architecture,
                previous: previous, source: source),
            AndroidLibrariesCheck(root: root, configuration: configuration)
        ]
    }

    /// `shipcheck audit`: every check in one scan, one report with the summary table. With
    /// `writeBaseline`, the findings are recorded there instead of reported (over an existing
    /// baseline: its entries keep their order, and what was added and dropped is printed); with
    /// `baseline`, only findings it does not hold are reported, and how many of its findings no
    /// longer occur is said — with `baselineStrict`, such stale entries fail the run. The
    /// configuration (`config`, else the root's `.shipcheck.yml`), the query store and the
    /// baseline are read through the same source as the scan, so no file is opened twice.
    package static func audit(
        root: String, config: String? = nil, extraBinaries: [String] = [], architecture: String? = nil,
        previous: String? = nil,
        baseline: String? = nil,
        baselineStrict: Bool = false, writeBaseline: String? = nil, failingSeverity: Severity,
        source base: any FileSource = DiskFileSource(), cache: ResultCacheChoice = .none, progress: ScanProgress? = nil
    ) throws(InputError) -> CommandOutcome {
        let source = ReadOnceFileSource(base)
        let configuration = cache.excludingCache(
            from: try ConfigurationLoader.load(
                explicitPath: config, root: root, rules: RuleRegistry.rules, settings: SettingsRegistry.settings,
                source: source),
            root: root)
        let resultCache = cache.cache(for: [root])
        let known = baseline.map { path in
            Result { () throws(InputError) -> Baseline in try Baseline.load(path, source: source) }
        }
        let outcome = ScanPipeline(
            root: root, configuration: configuration, source: source, progress: progress, cache: resultCache
        )
        .run(
            auditChecks(
                root: root, configuration: configuration, extraBinaries: extraBinaries, architecture: architecture,
                previous: previous, source: source))
        var result = outcome.combined
        cache.save(resultCache, into: &result)
        var findings = result.findings
        if let writeBaseline {
            let written = try writingBaseline(findings, to: writeBaseline)
            return CommandOutcome(
                output: written.output,
                messages: configuration.deprecations + written.messages + result.inputErrors.map(\.description),
                notes: result.notes,
                exitCode: ExitStatus.of(inputErrors: !result.inputErrors.isEmpty, failsGate: false))
        }
        var inputErrors = result.inputErrors
        var messages = configuration.deprecations
        var failures: [String] = []
        if let baseline, let known {
            do throws(InputError) {
                let recorded = try known.get()
                let fresh = recorded.newFindings(in: findings)
                let left = findings.count - fresh.count
                if left > 0 {
                    messages.append("\(left) finding\(left == 1 ? "" : "s") in the baseline \(baseline) not reported")
                }
                let fixed = recorded.fixedEntries(among: findings)
                if !fixed.isEmpty {
                    let count =
                        "\(fixed.count) finding\(fixed.count == 1 ? "" : "s") recorded in the baseline \(baseline)"
                    messages.append(
                        "\(count) no longer occur\(fixed.count == 1 ? "s" : "") (fixed): "
                            + "drop \(fixed.count == 1 ? "it" : "them") with --write-baseline \(baseline)")
                    if baselineStrict {
                        messages += fixed.map { "  fixed: " + Self.describe($0) }
                        failures.append(
                            "the baseline \(baseline) is stale (--baseline-strict): \(count) no longer occur\(fixed.count == 1 ? "s" : "")"
                        )
                    }
                }
                findings = fresh
            } catch {
                inputErrors.append(error)
            }
        }
        return CommandOutcome(
            report: Report(
                findings: findings, inputErrors: inputErrors, rules: RuleRegistry.descriptions,
                checks: outcome.checks.map(\.summary), failingSeverity: failingSeverity, failures: failures),
            messages: messages, notes: result.notes, explanations: result.explanations)
    }

    /// Writes `findings` as the baseline at `path`: a new file, or the update of the baseline
    /// there (a file that is not one is left alone: an input error). Returns the lines to print:
    /// on standard output each entry added (`+`) and dropped (`-`), on standard error the counts.
    private static func writingBaseline(_ findings: [Finding], to path: String) throws(InputError) -> (
        output: String?, messages: [String]
    ) {
        guard FileKind.of(path) != nil else {
            try Baseline(findings: findings).write(to: path)
            return (nil, ["recorded \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(path)"])
        }
        let update = try Baseline.load(path).updated(with: findings)
        try update.baseline.write(to: path)
        let kept = update.baseline.entries.count - update.added.count
        let counts = "updated \(path): \(update.added.count) added, \(update.dropped.count) dropped, \(kept) kept"
        let lines = update.added.map { "+ " + describe($0) } + update.dropped.map { "- " + describe($0) }
        return (lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n", [counts])
    }

    /// `App/View.swift [preview-outside-debug] #Preview("Dark")`: one line, the subject's
    /// separators (an identity's parts) shown as spaces.
    private static func describe(_ entry: Baseline.Entry) -> String {
        let subject = entry.subject.unicodeScalars.split { $0.value < 0x20 }.map {
            String(String.UnicodeScalarView($0))
        }.joined(separator: " ")
        return "\(FileEnumerator.escaped(entry.path)) [\(entry.rule)] \(subject)"
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
    /// The previous release (`audit --previous`; else the configuration's `previous:`).
    private let previous: String?
    /// The scan's source, which the artifact readers open the artifacts through.
    private let source: any FileSource

    init(
        root: String, configuration: Configuration, extraBinaries: [String], architecture: String?, previous: String?,
        source: any FileSource
    ) {
        self.root = root
        self.configuration = configuration
        self.extraBinaries = extraBinaries
        self.architecture = architecture
        self.previous = previous
        self.source = source
    }

    func finish() -> CheckResult {
        let expanded = ArtifactPaths.expand(configuration.settings(ArtifactSettings.self).binaries, root: root)
        let paths = expanded.paths + extraBinaries
        guard !paths.isEmpty else { return CheckResult(inputErrors: expanded.errors) }
        var result =
            Frontend.checkedAgainstPrevious(
                paths, previous: previous, root: root, configuration: configuration, architecture: architecture,
                source: source)
            ?? Frontend.artifactInspector(configuration: configuration, architecture: architecture, source: source)
            .run(paths: paths)
        for index in result.findings.indices {
            result.findings[index].location = result.findings[index].location.relative(to: root)
        }
        result.inputErrors += expanded.errors
        return result
    }
}
