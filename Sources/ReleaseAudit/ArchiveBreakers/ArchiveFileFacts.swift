import ScanEngine
import ShipcheckCore
import SourceScan

/// What one Swift file tells the archive-breaker check, kept instead of its bytes or tree: its
/// declarations when it was parsed, the places its release code names a DEBUG-only candidate
/// it was parsed for, and the names it mentions. Everything the check decides at the end of the
/// scan comes from these; a file is opened again only for names its filter may hold that it
/// was not parsed for (`unanswered(among:)`).
struct ArchiveFileFacts: Sendable, Codable {
    /// Every declaration the file makes, when it was parsed; nil when it was not (no `#if` and
    /// not a Development Asset: nothing in it is DEBUG-only).
    var declarations: [DeclaredName]?
    /// Places release code names something in `answered`, in source order.
    var references: [ReferenceFact] = []
    /// The names `references` covers: what this file declares DEBUG-only, and what a second
    /// look was for.
    var answered: Set<String> = []
    /// The names the file mentions; nil for a file whose uses never count (a Development Asset).
    var mentions: IdentifierFilter?
    /// Why the file cannot be parsed (not UTF-8, nested too deep), reported on every run.
    var problem: InputError?

    /// The facts of the read pass: a file with `#if` or in Development Assets is parsed.
    init(
        _ contents: FileContents, evaluator: ReleaseConditionEvaluator, isDevelopmentAsset: Bool, reportsUses: Bool
    ) {
        if let problem = SwiftText.problem(of: contents) {
            self.problem = problem
            return
        }
        let mayDeclare = isDevelopmentAsset || contents.withBytes { $0.firstIndex(of: "#if") != nil }
        // Generated files are looked at again for their declarations, as release code is for uses.
        mentions = isDevelopmentAsset ? nil : IdentifierFilter.of(contents)
        guard mayDeclare, let file = ParsedSwiftFile.of(contents) else { return }
        let declared = DeclarationCollector.collect(
            in: file, evaluator: evaluator, isDevelopmentAsset: isDevelopmentAsset)
        declarations = declared
        answered = Set(declared.filter(\.debugOnly).map(\.name))
        if reportsUses, !answered.isEmpty {
            let own = answered
            references = ReleaseReferenceFinder.facts(in: file, evaluator: evaluator, mayBeDebugOnly: own.contains)
        }
    }

    /// What a second look at a file finds about `names`: its declarations if it was not parsed
    /// before, and where its release code names one of `names`.
    private init(names: Set<String>, declarations: [DeclaredName]?, references: [ReferenceFact]) {
        self.declarations = declarations
        self.references = references
        answered = names
    }

    /// The names among `candidates` the file may mention and was not parsed for.
    func unanswered(among candidates: Set<String>) -> Set<String> {
        guard let mentions else { return [] }
        return candidates.filter { !answered.contains($0) && mentions.mayContain($0) }
    }

    /// The second look: nil when the file no longer parses (the read pass reported it).
    func answering(
        _ names: Set<String>, in contents: FileContents, evaluator: ReleaseConditionEvaluator, reportsUses: Bool
    ) -> ArchiveFileFacts? {
        guard !names.isEmpty, let file = ParsedSwiftFile.of(contents) else { return nil }
        let declared =
            declarations == nil
            ? DeclarationCollector.collect(in: file, evaluator: evaluator, isDevelopmentAsset: false) : nil
        let references =
            reportsUses
            ? ReleaseReferenceFinder.facts(in: file, evaluator: evaluator, mayBeDebugOnly: names.contains) : []
        return ArchiveFileFacts(names: names, declarations: declared, references: references)
    }

    /// Takes in what a second look found.
    mutating func merge(_ answer: ArchiveFileFacts) {
        if declarations == nil { declarations = answer.declarations }
        answered.formUnion(answer.answered)
        references = (references + answer.references).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }
}
