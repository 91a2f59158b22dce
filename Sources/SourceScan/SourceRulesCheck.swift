import ScanEngine
import ShipcheckCore
import Synchronization
import XcodeProject

/// The `sources` check: runs the Swift source rules and the project rules it is given over a
/// scan. A Swift file is parsed only when some rule's `requiredText` is in its bytes (or it is
/// in Development Assets and a rule checks those); it is parsed once for every rule (and every
/// other check reading its syntax), and each finding goes through the file's suppressions here,
/// the one place the grammar is applied to source rules. Each file leaves its result
/// (`SourceFileResult`: findings, findings waiting on other files, the facts that answer them),
/// which a result cache keeps for the next run; findings waiting on other files are decided at
/// the end, from the facts, on every run.
package final class SourceRulesCheck: FileCheck {
    package let name = "sources"
    private let rules: [any SwiftSourceRule.Type]
    private let projectRules: [any ProjectRule.Type]
    private let configuration: Configuration
    private let evaluator: ReleaseConditionEvaluator
    /// Whether to compute the rewrites `--fix` would make (`fixes`).
    private let fixing: Bool
    /// Every rule's `requiredText`, once each, and for each rule the indices of its own.
    private let prefilter: [[UInt8]]
    private let ruleNeedles: [(rule: any SwiftSourceRule.Type, needles: [Int], reportsInGeneratedFiles: Bool)]
    private let everyDevelopmentAsset: Bool
    /// The rules that leave test code out (`SwiftSourceRule.concernsReleaseBuilds`).
    private let releaseBuildRuleIDs: [String]
    private let generated: GeneratedFiles
    /// The rules that report in generated files (`SwiftSourceRule.reportsInGeneratedFiles`, or
    /// named by `check-generated`), and the ids of the others.
    private let generatedFileRules: [any SwiftSourceRule.Type]
    private let handWrittenRuleIDs: [String]
    /// What decides a file's result in the result cache besides its bytes and path.
    private let cacheSettings: String
    private let parsing: SourceParsing
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        var root = ""
        var swiftFiles = 0
        var projectFindings: [Finding] = []
        var findings: [(index: Int, findings: [Finding])] = []
        var fixes: [(index: Int, outcome: FixOutcome)] = []
        /// Findings waiting on facts about the whole scan, what the parsed files declare, and
        /// the Swift files of this scan, for what the facts do not settle.
        var pending: [PendingFinding] = []
        var facts = SwiftTypeFacts()
        var files: [LookupFile] = []
        var context: ScanContext?
        /// Results of earlier runs (none while fixing: the rewrite needs the tree).
        var results: (any ResultStore)?
        var explanations: [(index: Int, note: InputError)] = []
    }

    /// `rules`: the registry's rules; this check runs the Swift source rules and the project
    /// rules among them that `configuration` leaves on.
    package init(
        rules: [any Rule.Type], configuration: Configuration, fixing: Bool = false,
        parsing: SourceParsing = SourceParsing()
    ) {
        self.parsing = parsing
        self.rules = rules.reading(.swiftSource, as: (any SwiftSourceRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
        projectRules = rules.reading(.project, as: (any ProjectRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
        self.configuration = configuration
        evaluator = ReleaseConditionEvaluator(
            debugOnlyFlags: configuration.debugOnlyFlags, releaseSetFlags: configuration.releaseSetFlags)
        self.fixing = fixing
        let texts = Array(Set(self.rules.flatMap { $0.requiredText })).sorted()
        prefilter = texts.map { Array($0.utf8) }
        let generated = GeneratedFiles(configuration: configuration)
        self.generated = generated
        let inGeneratedFiles = { (rule: any SwiftSourceRule.Type) in
            rule.reportsInGeneratedFiles || generated.isChecked(rule.id)
        }
        ruleNeedles = self.rules.map { rule in
            (rule, rule.requiredText.compactMap { texts.firstIndex(of: $0) }, inGeneratedFiles(rule))
        }
        everyDevelopmentAsset = self.rules.contains { $0.checksEveryDevelopmentAsset }
        releaseBuildRuleIDs = self.rules.filter { $0.concernsReleaseBuilds }.map { $0.id }
        generatedFileRules = self.rules.filter(inGeneratedFiles)
        handWrittenRuleIDs = self.rules.filter { !inGeneratedFiles($0) }.map { $0.id }
        cacheSettings = configuration.resultKey
    }

    package func needsEarly(_ file: ScannedFile) -> Bool { ProjectModel.isProjectFile(file) }

    /// The rules among `rules` this check runs (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.inputs.contains(.swiftSource) || $0.inputs.contains(.project) }
    }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        let model = ProjectModel.of(context, configuration: configuration)
        if everyDevelopmentAsset { _ = model.developmentAssets }
        let findings = fixing ? [] : projectRules.flatMap { $0.check(model, root: context.root) }
        state.withLock {
            $0.model = model
            $0.root = context.root
            $0.projectFindings = findings
            $0.context = context
            $0.results = fixing ? nil : context.results
        }
        return []
    }

    package func wants(_ file: ScannedFile) -> Bool { file.relativePath.hasSuffix(".swift") }

    package func inspect(_ contents: FileContents) {
        let scope = self.scope(of: contents.file)
        let result = scope.slot.result(of: contents) {
            analyze(contents, scope: scope, generatedReason: generatedReason(for: contents))
        }
        take(
            result, of: contents.file, index: contents.index, scope: scope,
            contentHash: scope.slot.store.map { _ in ContentHash.of(contents) }, report: contents.report)
    }

    package func inspectUnchanged(_ file: UnchangedFile) -> Bool {
        let scope = self.scope(of: file.file)
        guard let kept = scope.slot.result(SourceFileResult.self, of: file) else { return false }
        take(kept, of: file.file, index: file.index, scope: scope, contentHash: file.contentHash, report: file.report)
        return true
    }

    /// What decides a file's result besides its bytes: where it sits in the project, and the
    /// settings.
    private struct FileScope {
        var slot: FileResultSlot
        var developmentReason: String?
        var testReason: String?
    }

    private func scope(of file: ScannedFile) -> FileScope {
        let (model, cache) = state.withLock { ($0.model, $0.results) }
        let path = file.relativePath
        let developmentReason = model?.developmentReason(for: path)
        let testReason = model?.testScope.reason(for: path)
        return FileScope(
            slot: FileResultSlot(
                store: cache, kind: name, path: path,
                settings: cacheSettings + "\u{1F}"
                    + (Self.cacheScope(developmentReason: developmentReason, testReason: testReason) ?? "")),
            developmentReason: developmentReason, testReason: testReason)
    }

    /// Keeps a file's result, read now or in an earlier run, with the notes it leaves.
    private func take(
        _ result: SourceFileResult, of file: ScannedFile, index: Int, scope: FileScope, contentHash: String?,
        report: (InputError) -> Void
    ) {
        var notes: [InputError] = []
        if let testReason = scope.testReason, !releaseBuildRuleIDs.isEmpty {
            notes.append(
                InputError(
                    path: file.relativePath,
                    message: "test code, \(testReason): not checked by \(releaseBuildRuleIDs.joined(separator: ", "))"))
        }
        if let generatedReason = result.generatedReason {
            notes.append(
                InputError(
                    path: file.relativePath,
                    message:
                        "generated (\(generatedReason)): not checked by \(handWrittenRuleIDs.joined(separator: ", "))"))
        }
        if parsing.explains, let explanation = result.parsing {
            notes.append(InputError(path: file.relativePath, message: explanation))
        }
        if let problem = result.problem { report(problem) }
        let lookup = LookupFile(
            file: file, index: index, mentions: result.mentions, parsed: result.types != nil, contentHash: contentHash)
        state.withLock {
            $0.swiftFiles += 1
            $0.explanations += notes.map { (index, $0) }
            $0.findings.append((index, result.findings))
            $0.pending += result.pending
            if let types = result.types { $0.facts.formUnion(types) }
            $0.files.append(lookup)
        }
    }

    /// The file's result: parsed and checked by every rule when one may apply.
    private func analyze(_ contents: FileContents, scope: FileScope, generatedReason: String?) -> SourceFileResult {
        var result = SourceFileResult(mentions: IdentifierFilter.of(contents), generatedReason: generatedReason)
        let generated = generatedReason != nil
        let isDevelopmentAsset = everyDevelopmentAsset && scope.developmentReason != nil
        let applicable = applicableRules(to: contents, generated: generated)
        guard isDevelopmentAsset || !applicable.isEmpty else { return result }
        if let problem = SwiftText.problem(of: contents) {
            result.problem = problem
            return result
        }
        let whole = isDevelopmentAsset ? "in Development Assets, which dev-asset-outside-debug reads whole" : nil
        let (parsed, explanation) = parsing.parse(contents, rules: applicable, wholeBecause: whole)
        result.parsing = explanation
        guard var file = parsed else { return result }
        if let problem = file.syntaxProblem {
            contents.report(problem)
            result.problem = problem
            return result
        }
        let context = SwiftRuleContext(
            evaluator: evaluator, developmentReason: scope.developmentReason, testReason: scope.testReason)
        let fileRules = generated ? generatedFileRules : rules
        var analysis = Self.analyze(file, rules: fileRules, context: context)
        if fixing, file.isPartial, !analysis.unwrappedPreviews.isEmpty || !analysis.moves.isEmpty,
            let wholeFile = ParsedSwiftFile.of(contents)
        {
            // A rewrite is verified against the whole tree.
            file = wholeFile
            analysis = Self.analyze(file, rules: fileRules, context: context)
        }
        if fixing {
            let outcome = Self.fix(file, at: contents.file.path, analysis: analysis, rules: fileRules, context: context)
            state.withLock { $0.fixes.append((contents.index, outcome)) }
        }
        result.findings = analysis.findings
        result.pending = analysis.pending
        result.types = file.typeFacts
        return result
    }

    /// What decides a cached file's findings besides its bytes and the settings: whether it is
    /// a Development Asset, whether it is test code.
    private static func cacheScope(developmentReason: String?, testReason: String?) -> String? {
        guard let testReason else { return developmentReason }
        return (developmentReason ?? "") + "; test code: " + testReason
    }

    /// Why the file is generated, when that leaves some rule out of it; else nil.
    private func generatedReason(for contents: FileContents) -> String? {
        handWrittenRuleIDs.isEmpty ? nil : generated.reason(for: contents)
    }

    /// The rules with their `requiredText` in the bytes and whose `mayApply` agrees (in a
    /// generated file, those reporting there); each text is searched for at most once.
    private func applicableRules(to contents: FileContents, generated: Bool) -> [any SwiftSourceRule.Type] {
        var found: [Int: Bool] = [:]
        func contains(_ needle: Int) -> Bool {
            if let known = found[needle] { return known }
            let result = contents.withBytes { $0.contains(prefilter[needle]) }
            found[needle] = result
            return result
        }
        return ruleNeedles.filter { entry in
            (!generated || entry.reportsInGeneratedFiles) && entry.needles.contains(where: contains)
                && entry.rule.mayApply(to: contents)
        }.map(\.rule)
    }

    package func finish() -> CheckResult {
        state.withLock { state in
            var findings = state.findings.sorted { $0.index < $1.index }.flatMap(\.findings)
            // While fixing, only the rewrites count: nothing waits on other files.
            if !fixing, let context = state.context {
                findings += state.facts.confirmed(state.pending, files: state.files, context: context)
            }
            return CheckResult(
                findings: state.projectFindings + findings, filesScanned: state.swiftFiles,
                explanations: state.explanations.sorted { $0.index < $1.index }.map(\.note))
        }
    }

    /// What `--fix` would change, in file order (after `finish`).
    package var fixes: SourceFixResult {
        state.withLock { state in
            var result = SourceFixResult()
            for (_, outcome) in state.fixes.sorted(by: { $0.index < $1.index }) {
                if let fix = outcome.fix { result.fixes.append(fix) }
                result.notFixed += outcome.notFixed
            }
            return result
        }
    }

    /// One file's findings after suppressions, the previews `--fix` would wrap and the
    /// constructions it would move (with the finding each one fixes).
    struct Analysis {
        var findings: [Finding] = []
        /// Findings that wait on facts about the whole scan.
        var pending: [PendingFinding] = []
        var unwrappedPreviews: [DetectedPreview] = []
        /// Each with the rule and identity of the finding it fixes.
        var moves: [(fixes: FindingKey, move: ConstructionMove)] = []
    }

    static func analyze(_ file: ParsedSwiftFile, rules: [any SwiftSourceRule.Type], context: SwiftRuleContext)
        -> Analysis
    {
        var analysis = Analysis()
        for rule in rules where context.testReason == nil || !rule.concernsReleaseBuilds {
            for found in rule.check(file, context) {
                let finding: Finding
                switch file.suppressions.outcome(of: found.finding, rule: rule, leadingLines: found.leadingLines) {
                case .reported(let reported): finding = reported
                case .suppressed, .suppressedByDeprecatedForm: continue
                }
                if let requirement = found.requirement {
                    analysis.pending.append(PendingFinding(finding: finding, requirement: requirement))
                } else {
                    analysis.findings.append(finding)
                }
                if let preview = found.preview { analysis.unwrappedPreviews.append(preview) }
                if let move = found.move { analysis.moves.append((FindingKey(finding), move)) }
            }
        }
        return analysis
    }

    struct FixOutcome: Sendable {
        var fix: SourceFix?
        var notFixed: [InputError] = []
    }

    /// The rewrite of one file, verified: it must parse, keep every original token (moved
    /// ones moved), and no longer report what it fixed — previews first, then constructions
    /// moved into `StateObject(wrappedValue:)`.
    static func fix(
        _ file: ParsedSwiftFile, at path: String, analysis: Analysis, rules: [any SwiftSourceRule.Type],
        context: SwiftRuleContext
    ) -> FixOutcome {
        var outcome = FixOutcome()
        var current = file, currentAnalysis = analysis
        var wrapped = 0, moved = 0
        if !analysis.unwrappedPreviews.isEmpty {
            let rewrite = PreviewFixer.fix(file, previews: analysis.unwrappedPreviews)
            outcome.notFixed = rewrite.skipped.map {
                InputError(
                    path: file.path, line: $0.line == 0 ? nil : $0.line,
                    message: "preview not fixed: \($0.reason); wrap it by hand")
            }
            if rewrite.wrapped > 0 {
                let fixedFile = try? ParsedSwiftFile(bytes: rewrite.fixed, path: file.path)
                let after = fixedFile.map { analyze($0, rules: rules, context: context) }
                let fixedIdentities = Set(analysis.unwrappedPreviews.map(\.identity))
                let stillUnwrapped =
                    after?.unwrappedPreviews.filter { fixedIdentities.contains($0.identity) }.count ?? .max
                if let fixedFile, let after, PreviewFixer.verify(original: file.tree, fixed: rewrite.fixed),
                    stillUnwrapped == rewrite.skipped.count
                {
                    (current, currentAnalysis, wrapped) = (fixedFile, after, rewrite.wrapped)
                } else {
                    outcome.notFixed.append(
                        InputError(
                            path: file.path,
                            message:
                                "refusing to fix: the rewritten file would not parse the same way; wrap its previews by hand"
                        ))
                }
            }
        }
        if !currentAnalysis.moves.isEmpty {
            let moves = currentAnalysis.moves.map(\.move)
            let fixed = ConstructionMove.apply(moves, to: current.bytes)
            let fixedFindings = Set(currentAnalysis.moves.map(\.fixes))
            let left =
                (try? ParsedSwiftFile(bytes: fixed, path: file.path)).map {
                    analyze($0, rules: rules, context: context)
                }.map { after in
                    (after.findings + after.pending.map(\.finding)).filter { fixedFindings.contains(FindingKey($0)) }
                        .count
                } ?? .max
            if left == 0, ConstructionMove.verify(original: current.tree, moves: moves, fixed: fixed) {
                current = (try? ParsedSwiftFile(bytes: fixed, path: file.path)) ?? current
                moved = moves.count
            } else {
                outcome.notFixed.append(
                    InputError(
                        path: file.path,
                        message:
                            "refusing to move constructions into StateObject(wrappedValue:): the rewritten file would not parse the same way; move them by hand"
                    ))
            }
        }
        guard current.bytes != file.bytes else { return outcome }
        outcome.fix = SourceFix(
            relativePath: file.path, path: path, original: file.bytes, fixed: current.bytes,
            wrappedPreviews: wrapped, movedConstructions: moved)
        return outcome
    }
}

/// What the sources check made of one Swift file, kept in the result cache: what a run takes
/// instead of parsing the file again.
struct SourceFileResult: Sendable, Codable {
    var findings: [Finding] = []
    /// Findings that wait on facts about the whole scan, decided anew on every run.
    var pending: [PendingFinding] = []
    /// The types the file declares, when it was parsed; nil when it was not.
    var types: SwiftTypeFacts?
    var mentions: IdentifierFilter
    /// Why it could not be checked (not UTF-8, does not parse), reported again on every run.
    var problem: InputError?
    /// Why it is generated, when that leaves some rule out of it (told from its header).
    var generatedReason: String?
    /// How it was parsed, when it was (what `--explain` shows).
    var parsing: String?
}

/// A finding's rule and identity: what a fix is for, and what must be gone after it.
struct FindingKey: Hashable {
    var rule: String
    var identity: String

    init(_ finding: Finding) {
        rule = finding.ruleID
        identity = finding.identity ?? ""
    }
}
