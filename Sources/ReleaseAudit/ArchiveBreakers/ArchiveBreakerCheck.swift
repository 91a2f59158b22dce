import ScanEngine
import ShipcheckCore
import SourceScan
import Synchronization
import XcodeProject

/// Predicts "cannot find 'MockData' in scope" at Archive time (`release-references-debug-only`):
/// release code (compiled when `DEBUG` is unset) that names a declaration existing only in
/// DEBUG-only regions or in Development Assets of the same target.
///
/// It is two-phase — every file's DEBUG-only declarations, then the release code that names
/// them — yet keeps no file's bytes or tree past its turn; each file leaves its facts
/// (`ArchiveFileFacts`):
///
/// - In the read pass, only files with `#if` bytes or in Development Assets can declare
///   anything DEBUG-only: they are parsed, for their declarations and the places their release
///   code names what they themselves declare DEBUG-only. Every release file leaves an
///   `IdentifierFilter` of the names it mentions.
/// - At the end the DEBUG-only names of each target are known. Only the release files whose
///   filter may hold one they have not been looked at for are opened and parsed again: their
///   declarations (a release declaration of the same name makes it ambiguous) and the places
///   their release code names one.
/// - Every place is judged against the target's complete index.
package final class ArchiveBreakerCheck: FileCheck {
    package let name = "archive breakers"
    private let configuration: Configuration
    private let enabled: Bool
    private let evaluator: ReleaseConditionEvaluator
    /// Generated files, whose uses are not reported (their declarations still count), unless
    /// `check-generated` names the rule.
    private let generated: GeneratedFiles?
    /// What decides a file's facts in the result cache besides its bytes and path.
    private let resultKey: String
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        var context: ScanContext?
        var sources = 0
        var files: [CheckedFile] = []
        /// Test code, left out: never archived, so never an archive breaker; and generated files.
        var explanations: [(index: Int, note: InputError)] = []
    }

    /// A Swift file of the scan and what it left.
    private struct CheckedFile: Sendable {
        var file: ScannedFile
        var index: Int
        var target: String
        /// Whether its release code's references are reported (not a generated file, not a
        /// Development Asset).
        var reportsUses: Bool
        var facts: ArchiveFileFacts
        /// Its content hash when the scan keeps results: a second look at the same bytes for the
        /// same names finds what it found before, without opening the file.
        var contentHash: String?
    }

    /// `rules`: the registry's; the check runs when `ArchiveBreakerRule` is among them and on.
    package init(rules: [any Rule.Type], configuration: Configuration) {
        self.configuration = configuration
        resultKey = configuration.resultKey
        enabled =
            rules.contains { $0 == ArchiveBreakerRule.self } && configuration.isEnabled(ArchiveBreakerRule.description)
        evaluator = ReleaseConditionEvaluator(
            debugOnlyFlags: configuration.debugOnlyFlags, releaseSetFlags: configuration.releaseSetFlags)
        let generated = GeneratedFiles(configuration: configuration)
        self.generated = generated.isChecked(ArchiveBreakerRule.id) ? nil : generated
    }

    package func needsEarly(_ file: ScannedFile) -> Bool { enabled && ProjectModel.isProjectFile(file) }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        if enabled {
            let model = ProjectModel.of(context, configuration: configuration)
            state.withLock {
                $0.model = model
                $0.context = context
            }
        }
        return []
    }

    package func wants(_ file: ScannedFile) -> Bool {
        enabled && file.relativePath.hasSuffix(".swift") && !SwiftTargets.isManifest(file.relativePath)
    }

    package func inspect(_ contents: FileContents) {
        guard let scope = scope(of: contents.file), !leftOut(contents.file, index: contents.index, scope: scope) else {
            return
        }
        let result = scope.slot.result(of: contents) {
            let generatedReason = generated?.reason(for: contents)
            return ArchiveFileResult(
                facts: ArchiveFileFacts(
                    contents, evaluator: evaluator, isDevelopmentAsset: scope.isDevelopmentAsset,
                    reportsUses: !scope.isDevelopmentAsset && generatedReason == nil),
                generatedReason: generatedReason)
        }
        take(
            result, of: contents.file, index: contents.index, scope: scope,
            contentHash: scope.slot.store.map { _ in ContentHash.of(contents) }, report: contents.report)
    }

    package func inspectUnchanged(_ file: UnchangedFile) -> Bool {
        guard let scope = scope(of: file.file), !leftOut(file.file, index: file.index, scope: scope) else {
            return true
        }
        guard let kept = scope.slot.result(ArchiveFileResult.self, of: file) else { return false }
        take(kept, of: file.file, index: file.index, scope: scope, contentHash: file.contentHash, report: file.report)
        return true
    }

    /// What a file's facts are kept under in the result cache, and what it is in the project.
    private struct FileScope {
        var target: String
        /// Test code, with the reason: left out.
        var testReason: String?
        var isDevelopmentAsset: Bool
        var slot: FileResultSlot
    }

    /// Nil before the project model is known (the check is off).
    private func scope(of file: ScannedFile) -> FileScope? {
        let (model, cache) = state.withLock { ($0.model, $0.context?.results) }
        guard let model else { return nil }
        let path = file.relativePath
        let isDevelopmentAsset = model.developmentReason(for: path) != nil
        return FileScope(
            target: model.swiftTargets.target(of: path), testReason: model.testScope.reason(for: path),
            isDevelopmentAsset: isDevelopmentAsset,
            slot: FileResultSlot(
                store: cache, kind: name, path: path, settings: "\(resultKey)\u{1F}\(isDevelopmentAsset)"))
    }

    /// Whether the file is test code, which is never archived, so never an archive breaker:
    /// then it is counted and explained, not looked at.
    private func leftOut(_ file: ScannedFile, index: Int, scope: FileScope) -> Bool {
        guard let reason = scope.testReason else { return false }
        let note = InputError(
            path: file.relativePath, message: "test code, \(reason): not checked by \(ArchiveBreakerRule.id)")
        state.withLock {
            $0.sources += 1
            $0.explanations.append((index, note))
        }
        return true
    }

    /// Keeps a file's facts, made now or in an earlier run, with the note it leaves.
    private func take(
        _ result: ArchiveFileResult, of file: ScannedFile, index: Int, scope: FileScope, contentHash: String?,
        report: (InputError) -> Void
    ) {
        let path = file.relativePath
        let note = result.generatedReason.map {
            InputError(path: path, message: "generated (\($0)): not checked by \(ArchiveBreakerRule.id)")
        }
        if let problem = result.facts.problem { report(problem) }
        let checked =
            result.facts.problem != nil
            ? nil
            : CheckedFile(
                file: file, index: index, target: scope.target,
                reportsUses: !scope.isDevelopmentAsset && result.generatedReason == nil, facts: result.facts,
                contentHash: contentHash)
        state.withLock {
            $0.sources += 1
            if let note { $0.explanations.append((index, note)) }
            if let checked { $0.files.append(checked) }
        }
    }

    package func finish() -> CheckResult {
        let (files, context, sources, explanations) = state.withLock { state in
            (state.files, state.context, state.sources, state.explanations)
        }
        var indexes: [String: DebugOnlyIndex] = [:]
        for checked in files {
            indexes[checked.target, default: DebugOnlyIndex()].add(checked.facts.declarations ?? [])
        }
        let candidates = indexes.mapValues { Set($0.candidateNames) }
        // The second look, for the files that may name a DEBUG-only name they were not parsed for.
        var wanted: [(file: ScannedFile, index: Int)] = []
        // By position in `files`, which stands for the file's index in what `reopen` hands back.
        var questions: [Int: Set<String>] = [:]
        for (position, checked) in files.enumerated() where checked.reportsUses || checked.facts.declarations == nil {
            let names = checked.facts.unanswered(among: candidates[checked.target] ?? [])
            guard !names.isEmpty else { continue }
            wanted.append((checked.file, position))
            questions[position] = names
        }
        let results = context?.results, settings = resultKey, asked = questions
        @Sendable func key(_ position: Int) -> ResultKey? {
            let checked = files[position]
            guard let hash = checked.contentHash, let names = asked[position] else { return nil }
            let asked = "\(settings)\u{1F}\(checked.reportsUses)\u{1F}\(checked.facts.declarations == nil)\u{1F}"
            return results?.key(
                "archive second look", path: checked.file.relativePath, contentHash: hash,
                settings: asked + names.sorted().joined(separator: ","))
        }
        var answers: [Int: ArchiveFileFacts] = [:]
        var unanswered: [(file: ScannedFile, index: Int)] = []
        for asked in wanted {
            if let key = key(asked.index), let known = results?.value(ArchiveFileFacts?.self, for: key) {
                if let known { answers[asked.index] = known }
            } else {
                unanswered.append(asked)
            }
        }
        let evaluator = evaluator
        let fresh =
            context?.reopen(unanswered) { contents -> ArchiveFileFacts? in
                let checked = files[contents.index]
                let answer = checked.facts.answering(
                    asked[contents.index] ?? [], in: contents, evaluator: evaluator, reportsUses: checked.reportsUses)
                if let key = key(contents.index) { results?.record(answer, for: key) }
                return answer
            } ?? []
        for (asked, answer) in zip(unanswered, fresh) { answers[asked.index] = answer }
        var merged = files
        for asked in wanted {
            guard let answer = answers[asked.index] else { continue }
            indexes[merged[asked.index].target, default: DebugOnlyIndex()].add(answer.declarations ?? [])
            merged[asked.index].facts.merge(answer)
        }
        for key in indexes.keys { indexes[key]!.sort() }
        var findings: [Finding] = []
        for checked in merged.sorted(by: { $0.index < $1.index }) {
            guard let index = indexes[checked.target] else { continue }
            for fact in checked.facts.references {
                guard let declarations = fact.reference(in: index) else { continue }
                findings.append(
                    ArchiveBreakerRule.finding(for: fact, declarations: declarations, path: checked.file.relativePath))
            }
        }
        return CheckResult(
            findings: findings, filesScanned: sources,
            explanations: explanations.sorted { $0.index < $1.index }.map(\.note))
    }
}

/// What the check keeps of one file in the result cache: its facts, and whether it is generated
/// (told from its header, so from its bytes).
private struct ArchiveFileResult: Codable {
    var facts: ArchiveFileFacts
    var generatedReason: String?
}
