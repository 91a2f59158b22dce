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
/// them — yet reads each file once and parses it at most once, without holding every tree:
///
/// - In the read pass, only files with `#if` bytes or in Development Assets can declare
///   anything DEBUG-only. Their identifiers between the first `#if` and the last `#endif` (all
///   of a Development Assets file) give, per target, a superset of the DEBUG-only names.
/// - Round one parses those files: their declarations, and the places their release code names
///   something in that superset, kept as facts the final index can judge without the tree.
/// - Then the DEBUG-only names are known; round two parses only the other release files that
///   mention one (their bytes were kept), recording their declarations and such places too.
/// - At the end every fact is judged against the target's complete index.
package final class ArchiveBreakerCheck: FileCheck {
    package let name = "archive breakers"
    private let configuration: Configuration
    private let enabled: Bool
    private let evaluator: ReleaseConditionEvaluator
    /// Generated files, whose uses are not reported (their declarations still count), unless
    /// `check-generated` names the rule.
    private let generated: GeneratedFiles?
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        var sources = 0
        /// Per target: hashes of the identifiers that may be DEBUG-only declarations.
        var mayBeDebugOnly: [String: Set<UInt64>] = [:]
        var indexes: [String: DebugOnlyIndex] = [:]
        /// After round one: per target, the DEBUG-only names release code may not use.
        var candidates: [String: Set<String>] = [:]
        var mentions: [String: NameMentions] = [:]
        var facts: [(index: Int, path: String, target: String, facts: [ReferenceFact])] = []
        /// Test code, left out: never archived, so never an archive breaker; and generated files.
        var explanations: [(index: Int, note: InputError)] = []
    }

    /// `rules`: the registry's; the check runs when `ArchiveBreakerRule` is among them and on.
    package init(rules: [any Rule.Type], configuration: Configuration) {
        self.configuration = configuration
        enabled =
            rules.contains { $0 == ArchiveBreakerRule.self } && configuration.isEnabled(ArchiveBreakerRule.description)
        evaluator = ReleaseConditionEvaluator(
            debugOnlyFlags: configuration.debugOnlyFlags, releaseSetFlags: configuration.releaseSetFlags)
        let generated = GeneratedFiles(configuration: configuration)
        self.generated = generated.isChecked(ArchiveBreakerRule.id) ? nil : generated
    }

    package func needsEarly(_ file: ScannedFile) -> Bool { enabled && ProjectModel.isProjectFile(file) }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        if enabled { state.withLock { $0.model = ProjectModel.of(context, configuration: configuration) } }
        return []
    }

    package func wants(_ file: ScannedFile) -> Bool {
        enabled && file.relativePath.hasSuffix(".swift") && !SwiftTargets.isManifest(file.relativePath)
    }

    package func inspect(_ contents: FileContents) -> FollowUp {
        let model = state.withLock { state in
            state.sources += 1
            return state.model
        }
        guard let model else { return .none }
        let path = contents.file.relativePath
        if let reason = model.testScope.reason(for: path) {
            let note = InputError(path: path, message: "test code, \(reason): not checked by \(ArchiveBreakerRule.id)")
            state.withLock { $0.explanations.append((contents.index, note)) }
            return .none
        }
        if let reason = generated?.reason(for: contents) {
            let note = InputError(path: path, message: "generated (\(reason)): not checked by \(ArchiveBreakerRule.id)")
            state.withLock { $0.explanations.append((contents.index, note)) }
        }
        guard SwiftText.isParseable(contents) else { return .none }
        let isDevelopmentAsset = model.developmentReason(for: path) != nil
        let hashes = contents.withBytes { bytes in
            (isDevelopmentAsset ? 0..<bytes.count : Self.conditionalSpan(in: bytes)).map { span in
                bytes.withSlice(span) { NameMentions.identifierHashes(in: $0) }
            }
        }
        guard let hashes else { return .secondRoundIfWanted }
        let target = model.swiftTargets.target(of: path)
        state.withLock { $0.mayBeDebugOnly[target, default: []].formUnion(hashes) }
        return .firstRound
    }

    package func process(_ contents: FileContents, round: FileRound) {
        guard let file = ParsedSwiftFile.of(contents), let model = state.withLock({ $0.model }) else { return }
        let target = model.swiftTargets.target(of: file.path)
        let isDevelopmentAsset = model.developmentReason(for: file.path) != nil
        let names = DeclarationCollector.collect(
            in: file, evaluator: evaluator, isDevelopmentAsset: isDevelopmentAsset)
        var facts: [ReferenceFact] = []
        if !isDevelopmentAsset && generated?.reason(for: contents) == nil {
            let filter: (String) -> Bool
            switch round {
            case .first:
                let hashes = state.withLock { $0.mayBeDebugOnly[target] ?? [] }
                filter = { hashes.contains(NameMentions.hash($0)) }
            case .second:
                let candidates = state.withLock { $0.candidates[target] ?? [] }
                filter = { candidates.contains($0) }
            }
            facts = ReleaseReferenceFinder.facts(in: file, evaluator: evaluator, mayBeDebugOnly: filter)
        }
        state.withLock { state in
            state.indexes[target, default: DebugOnlyIndex()].add(names)
            if !facts.isEmpty { state.facts.append((contents.index, file.path, target, facts)) }
        }
    }

    /// Round one declared every DEBUG-only name: release files mentioning one are parsed next.
    package func beginSecondRound() {
        state.withLock { state in
            for (target, index) in state.indexes {
                let names = index.candidateNames
                state.candidates[target] = Set(names)
                state.mentions[target] = NameMentions(names)
            }
        }
    }

    package func wantsSecondRound(_ contents: FileContents) -> Bool {
        guard let (model, mentions) = state.withLock({ state in state.model.map { ($0, state.mentions) } }) else {
            return false
        }
        let names = mentions[model.swiftTargets.target(of: contents.file.relativePath)]
        return names.map { names in !names.isEmpty && contents.withBytes { names.isMentioned(in: $0) } } ?? false
    }

    package func finish() -> CheckResult {
        state.withLock { state in
            for key in state.indexes.keys { state.indexes[key]!.sort() }
            var findings: [Finding] = []
            for file in state.facts.sorted(by: { $0.index < $1.index }) {
                guard let index = state.indexes[file.target] else { continue }
                for fact in file.facts {
                    guard let declarations = fact.reference(in: index) else { continue }
                    findings.append(ArchiveBreakerRule.finding(for: fact, declarations: declarations, path: file.path))
                }
            }
            return CheckResult(
                findings: findings, filesScanned: state.sources,
                explanations: state.explanations.sorted { $0.index < $1.index }.map(\.note))
        }
    }

    /// From the first `#if` to the end of the last `#endif` (or of the file): where every
    /// declaration a release build leaves out lies.
    static func conditionalSpan(in bytes: borrowing ByteView) -> Range<Int>? {
        let opener = Array("#if".utf8), closer = Array("#endif".utf8)
        guard let first = bytes.firstIndex(of: opener) else { return nil }
        var last: Int?
        var from = first
        while let hit = bytes.firstIndex(of: closer, from: from) {
            last = hit
            from = hit + 1
        }
        return first..<(last.map { $0 + closer.count } ?? bytes.count)
    }
}
