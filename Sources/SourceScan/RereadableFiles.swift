import ScanEngine
import ShipcheckCore

/// The files of a scan read and parsed again, once each and in parallel, for what pending
/// findings wait on (see `SwiftTypeFacts.confirmed`): a file is parsed only when the bytes of
/// some `FileLookup` match, and each matching lookup reads the tree. A file that cannot be read
/// or parsed now was reported by the scan, so it is skipped here.
struct RereadableFiles: Sendable {
    var files: [ScannedFile]
    var source: any FileSource
    var sizeLimit: Int

    func answers(_ lookups: [FileLookup]) -> LookupAnswers {
        guard !lookups.isEmpty else { return LookupAnswers() }
        let perFile = files.parallelMap { file -> LookupAnswers? in
            // A file no lookup asks about is not opened again.
            let asking = lookups.filter { $0.paths?.contains(file.path) ?? true }
            guard !asking.isEmpty,
                let bytes = try? source.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
            else {
                return nil
            }
            let matching = bytes.withByteView { hay in asking.filter { $0.mayHold(file, hay) } }
            guard !matching.isEmpty, let parsed = try? ParsedSwiftFile(bytes: bytes, path: file.relativePath) else {
                return nil
            }
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

/// One question pending findings ask of the scan's files: which bytes make a file worth
/// parsing for it, and what a parsed file answers.
struct FileLookup: Sendable {
    /// Test code has nothing to say (it never runs in a release).
    var releaseOnly: Bool
    /// The only files that may answer (nil: any file of the scan).
    var paths: Set<String>? = nil
    var mayHold: @Sendable (ScannedFile, borrowing ByteView) -> Bool
    var answer: @Sendable (ParsedSwiftFile) -> LookupAnswers
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
