import ShipcheckCore
import Synchronization
import XcodeProject

/// The `sources` check: runs the Swift source rules and the project rules it is given over a
/// scan. A Swift file is parsed only when some rule's `requiredText` is in its bytes (or it is
/// in Development Assets and a rule checks those); it is parsed once for every rule (and every
/// other check reading its syntax), and each finding goes through the file's suppressions here,
/// the one place the grammar is applied to source rules.
public final class SourceRulesCheck: FileCheck {
    public let name = "sources"
    private let rules: [any SwiftSourceRule.Type]
    private let projectRules: [any ProjectRule.Type]
    private let evaluator: ReleaseConditionEvaluator
    /// Whether to compute the rewrites `--fix` would make (`fixes`).
    private let fixing: Bool
    private let prefilter: [[UInt8]]
    private let everyDevelopmentAsset: Bool
    /// Per-file results of earlier runs (`sources --cache`), with what decides them.
    private let cache: SourceScanCache?
    private let cacheSettings: String
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        var root = ""
        var swiftFiles = 0
        var projectFindings: [Finding] = []
        var findings: [(index: Int, findings: [Finding])] = []
        var fixes: [(index: Int, outcome: FixOutcome)] = []
    }

    /// `rules`: the registry's rules; this check runs the Swift source rules and the project
    /// rules among them that `configuration` leaves on.
    public init(rules: [any Rule.Type], configuration: Configuration, fixing: Bool = false, cache: SourceScanCache? = nil) {
        self.rules = rules.compactMap { $0 as? any SwiftSourceRule.Type }.filter { configuration.isEnabled($0.description) }
        projectRules = rules.compactMap { $0 as? any ProjectRule.Type }.filter { configuration.isEnabled($0.description) }
        evaluator = ReleaseConditionEvaluator(debugOnlyFlags: configuration.debugOnlyFlags, releaseSetFlags: configuration.releaseSetFlags)
        self.fixing = fixing
        prefilter = Array(Set(self.rules.flatMap { $0.requiredText })).sorted().map { Array($0.utf8) }
        everyDevelopmentAsset = self.rules.contains { $0.checksEveryDevelopmentAsset }
        self.cache = cache
        cacheSettings = SourceScanCache.settings(of: configuration, ruleIDs: self.rules.map { $0.id })
    }

    public func needsEarly(_ file: ScannedFile) -> Bool { ProjectModel.isProjectFile(file) }

    /// The rules among `rules` this check runs (for reports' rule lists).
    public static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0 is any SwiftSourceRule.Type || $0 is any ProjectRule.Type }
    }

    public func prepare(_ context: ScanContext) -> [ScannedFile] {
        let model = ProjectModel.of(context)
        if everyDevelopmentAsset { _ = model.developmentAssets }
        let findings = fixing ? [] : projectRules.flatMap { $0.check(model, root: context.root) }
        state.withLock {
            $0.model = model
            $0.root = context.root
            $0.projectFindings = findings
        }
        return []
    }

    public func wants(_ file: ScannedFile) -> Bool { file.relativePath.hasSuffix(".swift") }

    public func inspect(_ contents: FileContents) -> FollowUp {
        let model = state.withLock { state in
            state.swiftFiles += 1
            return state.model
        }
        let developmentReason = model?.developmentReason(for: contents.file.relativePath)
        if let entry = cache?.lookup(contents, developmentReason: developmentReason, settings: cacheSettings) {
            if let error = entry.error { contents.report(error) }
            state.withLock { $0.findings.append((contents.index, entry.findings)) }
            return .none
        }
        let isDevelopmentAsset = everyDevelopmentAsset && developmentReason != nil
        guard isDevelopmentAsset || prefilter.contains(where: { needle in needle.withUnsafeBytes { ByteSearch.find($0, in: contents.bytes) != nil } }),
              SwiftText.isParseable(contents) else {
            cache?.record(contents, developmentReason: developmentReason, settings: cacheSettings, findings: [], error: contents.errors.first)
            return .none
        }
        return .eitherRound
    }

    public func process(_ contents: FileContents, round: FileRound) {
        guard let file = ParsedSwiftFile.of(contents) else { return }
        let developmentReason = state.withLock { $0.model }?.developmentReason(for: file.path)
        if let problem = file.syntaxProblem {
            contents.report(problem)
            cache?.record(contents, developmentReason: developmentReason, settings: cacheSettings, findings: [], error: problem)
            return
        }
        let context = SwiftRuleContext(evaluator: evaluator, developmentReason: developmentReason)
        let analysis = Self.analyze(file, rules: rules, context: context)
        cache?.record(contents, developmentReason: developmentReason, settings: cacheSettings, findings: analysis.findings, error: nil)
        if fixing {
            let outcome = Self.fix(file, at: contents.file.path, analysis: analysis, rules: rules, context: context)
            state.withLock { $0.fixes.append((contents.index, outcome)) }
        } else {
            state.withLock { $0.findings.append((contents.index, analysis.findings)) }
        }
    }

    public func finish() -> CheckResult {
        state.withLock { state in
            let findings = state.findings.sorted { $0.index < $1.index }.flatMap(\.findings)
            return CheckResult(findings: state.projectFindings + findings, filesScanned: state.swiftFiles)
        }
    }

    /// What `--fix` would change, in file order (after `finish`).
    public var fixes: SourceFixResult {
        state.withLock { state in
            var result = SourceFixResult()
            for (_, outcome) in state.fixes.sorted(by: { $0.index < $1.index }) {
                if let fix = outcome.fix { result.fixes.append(fix) }
                result.notFixed += outcome.notFixed
            }
            return result
        }
    }

    /// One file's findings after suppressions, and the previews `--fix` would wrap.
    struct Analysis {
        var findings: [Finding] = []
        var unwrappedPreviews: [DetectedPreview] = []
    }

    static func analyze(_ file: ParsedSwiftFile, rules: [any SwiftSourceRule.Type], context: SwiftRuleContext) -> Analysis {
        var analysis = Analysis()
        for rule in rules {
            for found in rule.check(file, context) {
                var finding = found.finding
                let line = finding.location.line ?? 1
                switch file.suppressions.decision(rule: rule.id, line: line, leadingLines: found.leadingLines) {
                case .suppressed, .suppressedByDeprecatedForm: continue
                case .missingReason: finding.message += Suppressions.missingReasonNote
                case .report: break
                }
                analysis.findings.append(finding)
                if let preview = found.preview { analysis.unwrappedPreviews.append(preview) }
            }
        }
        return analysis
    }

    struct FixOutcome: Sendable {
        var fix: SourceFix?
        var notFixed: [InputError] = []
    }

    /// The rewrite of one file, verified: it must parse, keep every original token, and leave
    /// the wrapped previews wrapped.
    static func fix(_ file: ParsedSwiftFile, at path: String, analysis: Analysis, rules: [any SwiftSourceRule.Type], context: SwiftRuleContext) -> FixOutcome {
        guard !analysis.unwrappedPreviews.isEmpty else { return FixOutcome() }
        let rewrite = PreviewFixer.fix(file, previews: analysis.unwrappedPreviews)
        var outcome = FixOutcome(notFixed: rewrite.skipped.map {
            InputError(path: file.path, line: $0.line == 0 ? nil : $0.line, message: "preview not fixed: \($0.reason); wrap it by hand")
        })
        guard rewrite.wrapped > 0 else { return outcome }
        let after = (try? ParsedSwiftFile(bytes: rewrite.fixed, path: file.path)).map { analyze($0, rules: rules, context: context) }
        let fixedIdentities = Set(analysis.unwrappedPreviews.map(\.identity))
        let stillUnwrapped = after?.unwrappedPreviews.filter { fixedIdentities.contains($0.identity) }.count ?? .max
        guard PreviewFixer.verify(original: file.tree, fixed: rewrite.fixed), stillUnwrapped == rewrite.skipped.count else {
            outcome.notFixed.append(InputError(path: file.path, message: "refusing to fix: the rewritten file would not parse the same way; wrap its previews by hand"))
            return outcome
        }
        outcome.fix = SourceFix(relativePath: file.path, path: path, original: file.bytes, fixed: rewrite.fixed, wrappedPreviews: rewrite.wrapped)
        return outcome
    }
}
