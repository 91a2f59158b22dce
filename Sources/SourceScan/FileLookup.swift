import ScanEngine
import ShipcheckCore

/// A Swift file of the scan as the questions pending findings ask see it: what it mentions,
/// and whether the scan parsed it (then its type facts are known already).
struct LookupFile: Sendable {
    var file: ScannedFile
    var index: Int
    var mentions: IdentifierFilter
    var parsed: Bool
}

/// One question pending findings ask of the scan's files: the names a file must mention to be
/// worth opening again (its `IdentifierFilter` decides), which bytes make it worth parsing,
/// and what a parsed file answers.
struct FileLookup: Sendable {
    /// Test code has nothing to say (it never runs in a release).
    var releaseOnly: Bool
    /// A file is asked only when it may mention one of these.
    var names: Set<String>
    /// Only files the scan did not parse: what the parsed ones say is in the facts already.
    var unparsedOnly = false
    var mayHold: @Sendable (ScannedFile, borrowing ByteView) -> Bool
    var answer: @Sendable (ParsedSwiftFile) -> LookupAnswers

    func asks(_ file: LookupFile) -> Bool {
        (!unparsedOnly || !file.parsed) && file.mentions.mayContainAny(of: names)
    }

    /// What `files` answer to `lookups`: the files some lookup asks are opened again, once each
    /// and in parallel, and parsed when the bytes of one match. A file that cannot be read or
    /// parsed now was reported by the read pass, so it is skipped here.
    static func answers(_ lookups: [FileLookup], in files: [LookupFile], context: ScanContext) -> LookupAnswers {
        guard !lookups.isEmpty else { return LookupAnswers() }
        let asked = files.sorted { $0.index < $1.index }.compactMap { file -> (LookupFile, [FileLookup])? in
            let asking = lookups.filter { $0.asks(file) }
            return asking.isEmpty ? nil : (file, asking)
        }
        let perFile = context.reopen(asked.enumerated().map { ($0.element.0.file, $0.offset) }) {
            contents -> LookupAnswers? in
            let asking = asked[contents.index].1
            let matching = contents.withBytes { hay in asking.filter { $0.mayHold(contents.file, hay) } }
            guard !matching.isEmpty, let parsed = ParsedSwiftFile.of(contents) else { return nil }
            let isTestCode = TestCode.contains(parsed)
            var answers = LookupAnswers()
            for lookup in matching where !(lookup.releaseOnly && isTestCode) { answers.merge(lookup.answer(parsed)) }
            return answers
        }
        var answers = LookupAnswers()
        for case let fileAnswers? in perFile { answers.merge(fileAnswers) }
        return answers
    }
}

/// What the files answered: type facts, calls building an argument (`ConstructingCalls`),
/// stores of possibly isolated closures (`ClosureProvenance`), each with where it is
/// (`path:line`; the first file in scan order wins).
struct LookupAnswers: Sendable {
    var facts = SwiftTypeFacts()
    var calls: [ConstructingCalls.Argument: String] = [:]
    var stores: [ClosureProvenance.Property: String] = [:]

    mutating func merge(_ other: LookupAnswers) {
        facts.formUnion(other.facts)
        calls.merge(other.calls) { first, _ in first }
        stores.merge(other.stores) { first, _ in first }
    }
}
