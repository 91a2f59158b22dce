import ScanEngine
import ShipcheckCore

/// A Swift file of the scan as the questions pending findings ask see it: what it mentions,
/// and whether the scan parsed it (then its type facts are known already).
struct LookupFile: Sendable {
    var file: ScannedFile
    var index: Int
    var mentions: IdentifierFilter
    var parsed: Bool
    /// Its content hash, when the scan keeps results (`ScanContext.results`): what a file
    /// answered to a question before, it answers again without being opened.
    var contentHash: String?
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
    /// The question in words (its kind and what it asks about): with a file's bytes, what
    /// decides the file's answer, which the result cache keeps.
    var question: String
    var mayHold: @Sendable (ScannedFile, borrowing ByteView) -> Bool
    var answer: @Sendable (ParsedSwiftFile) -> LookupAnswers

    func asks(_ file: LookupFile) -> Bool {
        (!unparsedOnly || !file.parsed) && file.mentions.mayContainAny(of: names)
    }

    /// What `files` answer to `lookups`: a file's answer to a question it answered before (same
    /// bytes, same question) comes from the result cache; the files some lookup still asks are
    /// opened again, once each and in parallel, and parsed when the bytes of one match. A file
    /// that cannot be read or parsed now was reported by the read pass, so it answers nothing.
    static func answers(_ lookups: [FileLookup], in files: [LookupFile], context: ScanContext) -> LookupAnswers {
        guard !lookups.isEmpty else { return LookupAnswers() }
        let results = context.results
        @Sendable func key(_ lookup: FileLookup, _ file: LookupFile) -> ResultKey? {
            file.contentHash.flatMap {
                results?.key("file lookup", path: file.file.relativePath, contentHash: $0, settings: lookup.question)
            }
        }
        let ordered = files.sorted { $0.index < $1.index }
        var known: [LookupAnswers] = []
        var unanswered: [(file: LookupFile, lookups: [FileLookup])] = []
        for file in ordered {
            var answers = LookupAnswers()
            var asking: [FileLookup] = []
            for lookup in lookups where lookup.asks(file) {
                if let key = key(lookup, file), let answer = results?.value(LookupAnswers.self, for: key) {
                    answers.merge(answer)
                } else {
                    asking.append(lookup)
                }
            }
            known.append(answers)
            if !asking.isEmpty { unanswered.append((file, asking)) }
        }
        let asked = unanswered
        let perFile = context.reopen(asked.enumerated().map { ($0.element.file.file, $0.offset) }) {
            contents -> LookupAnswers? in
            let (file, asking) = asked[contents.index]
            let matching = contents.withBytes { hay in asking.map { $0.mayHold(file.file, hay) } }
            // Parsed only when the bytes of some question match.
            let parsed = matching.contains(true) ? ParsedSwiftFile.of(contents) : nil
            let isTestCode = parsed.map(TestCode.contains) ?? false
            var answers = LookupAnswers()
            for (lookup, matches) in zip(asking, matching) {
                var answer = LookupAnswers()
                if matches, let parsed, !(lookup.releaseOnly && isTestCode) { answer = lookup.answer(parsed) }
                if let key = key(lookup, file) { results?.record(answer, for: key) }
                answers.merge(answer)
            }
            return answers
        }
        // In scan order, the cached answers and the fresh ones together: the first file wins.
        var fresh: [Int: LookupAnswers] = [:]
        for (position, answers) in perFile.enumerated() {
            if let answers { fresh[unanswered[position].file.index] = answers }
        }
        var answers = LookupAnswers()
        for (position, file) in ordered.enumerated() {
            answers.merge(known[position])
            if let fileAnswers = fresh[file.index] { answers.merge(fileAnswers) }
        }
        return answers
    }
}

/// What the files answered: type facts, calls building an argument (`ConstructingCalls`),
/// stores of possibly isolated closures (`ClosureProvenance`), each with where it is
/// (`path:line`; the first file in scan order wins).
struct LookupAnswers: Sendable, Codable {
    var facts = SwiftTypeFacts()
    var calls: [ConstructingCalls.Argument: String] = [:]
    var stores: [ClosureProvenance.Property: String] = [:]

    mutating func merge(_ other: LookupAnswers) {
        facts.formUnion(other.facts)
        calls.merge(other.calls) { first, _ in first }
        stores.merge(other.stores) { first, _ in first }
    }
}
