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
        let (model, cache) = state.withLock { state in
            state.sources += 1
            return (state.model, state.context?.results)
        }
        guard let model else { return }
        let path = contents.file.relativePath
        if let reason = model.testScope.reason(for: path) {
            let note = InputError(path: path, message: "test code, \(reason): not checked by \(ArchiveBreakerRule.id)")
            state.withLock { $0.explanations.append((contents.index, note)) }
            return
        }
        var isGenerated = false
        if let reason = generated?.reason(for: contents) {
            let note = InputError(path: path, message: "generated (\(reason)): not checked by \(ArchiveBreakerRule.id)")
            state.withLock { $0.explanations.append((contents.index, note)) }
            isGenerated = true
        }
        let isDevelopmentAsset = model.developmentReason(for: path) != nil
        let reportsUses = !isDevelopmentAsset && !isGenerated
        let key = cache?.key(
            name, contents: contents,
            settings: "\(resultKey)\u{1F}\(isDevelopmentAsset)\u{1F}\(reportsUses)")
        let facts: ArchiveFileFacts
        if let key, let cached = cache?.value(ArchiveFileFacts.self, for: key) {
            facts = cached
            if let problem = facts.problem { contents.report(problem) }
        } else {
            facts = ArchiveFileFacts(
                contents, evaluator: evaluator, isDevelopmentAsset: isDevelopmentAsset, reportsUses: reportsUses)
            if let key { cache?.record(facts, for: key) }
        }
        guard facts.problem == nil else { return }
        let checked = CheckedFile(
            file: contents.file, index: contents.index, target: model.swiftTargets.target(of: path),
            reportsUses: reportsUses, facts: facts, contentHash: cache.map { _ in ContentHash.of(contents) })
        state.withLock { $0.files.append(checked) }
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
        @Sendable func key(_ position: Int) -> String? {
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
