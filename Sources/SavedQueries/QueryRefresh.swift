import Foundation
import ScanEngine
import ShipcheckCore

/// One query's run turned into findings, file by file as the scan completes them, and compared
/// with its previous run file by file: a fingerprint hashes its path, so a file's matches can
/// only be among that file's previous ones. A file whose key and match count are as the
/// previous run recorded them is not fingerprinted or compared at all. What a refresh keeps
/// grows with the files, not the matches (and with the findings themselves when
/// `keepsFindings`: a report format other than the streamed text needs them all at the end).
package struct QueryRefresh: Sendable {
    /// What turning one file's matches into findings needs: read-only, so every searching
    /// thread can use it at once. A class: it is handed to every (query, file) pair, and a
    /// struct of a dozen references was copied, each retained and released, every time.
    package final class Context: Sendable {
        package let query: ScopedQuery
        /// The previous run's state, when it could be read.
        package let previous: PreviousState?
        /// Why the previous run's state could not be read, when it could not.
        package let previousProblem: String?
        /// Whether the previous run searched with the same pattern and options (else no diff).
        package let comparable: Bool
        /// Whether an unchanged file keeps its previous block: only under the same name (the
        /// fingerprints hash it; a renamed query's are all made anew).
        let keepsUnchangedBlocks: Bool
        let keepsFindings: Bool
        private let message: String
        /// What the one-line text layout puts before the matched text.
        private let lineMessagePrefix: String
        private let fixHint: String?
        /// Hashed after the path into every fingerprint: the query's scope and name.
        private let identityPrefix: String

        package init(query: ScopedQuery, previous: PreviousState.Load = .absent, keepsFindings: Bool) {
            self.query = query
            self.previous = previous.state
            if case .unreadable(let problem) = previous { previousProblem = problem } else { previousProblem = nil }
            self.keepsFindings = keepsFindings
            let saved = query.query
            comparable = previous.state?.signature == saved.definitionSignature
            keepsUnchangedBlocks = comparable && previous.state?.name == saved.name
            message = QueryRefresh.message(for: saved)
            lineMessagePrefix = QueryRefresh.lead(for: saved)
            fixHint =
                saved.expectNone
                ? "remove the match, or narrow the query with 'shipcheck query edit \(saved.name)'" : nil
            identityPrefix = "\(query.scope.rawValue):\(saved.name)\u{1F}"
        }

        /// One file's matches (as `QuerySearcher.search` gives them) as fingerprinted findings
        /// (the audit's gates, which keep no state).
        package func file(path: String, matches: [QueryMatch]) -> FileRefresh {
            var fingerprints = FileFingerprints(ruleID: SavedQueryRule.id, path: path, identityPrefix: identityPrefix)
            let findings = matches.map { match in
                let value = match.lineText.withByteView {
                    fingerprints.next(line: $0)
                }
                return finding(
                    path: path, line: match.line, column: match.column, endColumn: match.endColumn,
                    snippet: match.lineText, fingerprint: value)
            }
            return FileRefresh(path: path, matchCount: matches.count, findings: keepsFindings ? findings : [])
        }

        /// One file's matches straight from its bytes, with no string or finding per match
        /// unless one is kept or new: the fingerprints, the block of the query's new state,
        /// what is new and gone in this file, and (with `text`) the lines of the text report.
        /// A file unchanged since the previous run (`PreviousState.isUnchanged`) keeps its
        /// previous block and is not fingerprinted — unless the findings are kept.
        func file(
            path: String, digest: PathDigest, key: FileKey?, bytes: borrowing ByteView, ranges: [Range<Int>],
            text: QueryRunText.Layout?
        ) -> FileRefresh {
            var file = FileRefresh(path: path, key: key, matchCount: ranges.count)
            file.previousFile = comparable ? previous?.file(at: digest) : nil
            let unchanged =
                keepsUnchangedBlocks
                && file.previousFile.map { previous!.isUnchanged($0, key: key, matchCount: ranges.count) } == true
            let fingerprinting = !unchanged || keepsFindings
            // The path's hash is the start of every fingerprint: not worked out for a file that has none.
            var fingerprints =
                fingerprinting
                ? FileFingerprints(ruleID: SavedQueryRule.id, path: path, identityPrefix: identityPrefix) : nil
            let state = unchanged ? nil : StateFileFormat.EntryWriter(path: path)
            var report = text.map { QueryRunText.FileLines(layout: $0, path: path) }
            var lines = LineCursor()
            var values: [UInt128] = []
            if fingerprinting { values.reserveCapacity(ranges.count) }
            if !unchanged { file.state.reserveCapacity(ranges.count * 96) }
            for range in ranges {
                let place = MatchPlace(range, in: bytes, lines: &lines)
                bytes.withSlice(place.text) { lineText in
                    report?.append(place, lineText: lineText, to: &file.text)
                    guard let value = fingerprints?.next(line: lineText) else { return }
                    values.append(value)
                    state?.append(fingerprint: value, line: place.line, lineText: lineText, to: &file.state)
                    if keepsFindings {
                        file.findings.append(
                            finding(path: path, place: place, lineText: lineText.string(), fingerprint: value))
                    }
                }
            }
            if unchanged {
                file.keepsPreviousBlock = true
                return file
            }
            let new = compare(values, into: &file)
            if keepsFindings {
                for index in new { file.new.append(file.findings[index]) }
            } else if !new.isEmpty {
                lines = LineCursor()
                for index in new {
                    let place = MatchPlace(ranges[index], in: bytes, lines: &lines)
                    file.new.append(
                        finding(
                            path: path, place: place, lineText: bytes.string(place.text), fingerprint: values[index]))
                }
            }
            return file
        }

        /// Compares a file's fingerprints with its own block of the previous run: notes what
        /// is gone and returns the indexes of the new ones — none without a comparable
        /// previous run, all when the file had no match then. A block that comes back the same
        /// is kept where it is.
        private func compare(_ values: [UInt128], into file: inout FileRefresh) -> [Int] {
            guard comparable, let previous else { return [] }
            guard let index = file.previousFile else { return Array(values.indices) }
            guard let block = previous.block(index) else {
                file.previousUnreadable = true
                return []
            }
            var before: [(value: UInt128, line: Range<Int>)] = []
            let read = block.withByteView { buffer in
                StateFileFormat.forEachLine(buffer) { line, offset in
                    guard let value = StateFileFormat.fingerprint(ofEntry: line) else { return false }
                    before.append((value, offset..<(offset + line.count)))
                    return true
                }
            }
            guard read else {
                file.previousUnreadable = true
                return []
            }
            let previousValues = Set(before.map(\.value))
            let current = Set(values)
            for (value, line) in before where !current.contains(value) {
                guard let entry = StateFileFormat.decodeEntry(block[line]) else {
                    file.previousUnreadable = true
                    return []
                }
                file.gone.append(entry)
            }
            let new = values.indices.filter { !previousValues.contains(values[$0]) }
            if new.isEmpty && file.gone.isEmpty && file.state == block { file.keepsPreviousBlock = true }
            return new
        }

        private func finding(path: String, place: MatchPlace, lineText: String, fingerprint: UInt128) -> Finding {
            finding(
                path: path, line: place.line, column: place.column, endColumn: place.endColumn, snippet: lineText,
                fingerprint: fingerprint)
        }

        private func finding(
            path: String, line: Int, column: Int, endColumn: Int, snippet: String, fingerprint: UInt128
        ) -> Finding {
            var finding = Finding(
                ruleID: SavedQueryRule.id, severity: query.query.effectiveSeverity, message: message,
                location: .source(
                    SourceLocation(path: path, line: line, column: column, endLine: line, endColumn: endColumn)),
                snippet: snippet, fixHint: fixHint, identity: identityPrefix + Fingerprinter.normalized(snippet))
            finding.fingerprint = StableHash.hex(fingerprint)
            finding.lineMessage = lineMessagePrefix + QueryRunText.clipped(snippet.trimmingCharacters(in: [" ", "\t"]))
            return finding
        }
    }

    package let context: Context
    package var query: ScopedQuery { context.query }
    package var previous: PreviousState? { context.previous }
    /// Why the previous run's state could not be read (then nothing is compared).
    package private(set) var previousProblem: String?
    /// Whether this run was compared with the previous one.
    package var comparable: Bool { context.comparable && previousProblem == nil }
    /// The run's counts, set by `finish`.
    package private(set) var result: QueryRunResult
    /// Every finding, fingerprinted, in reading order — when kept.
    package private(set) var findings: [Finding] = []
    package private(set) var matchCount = 0
    package private(set) var fileCount = 0
    package private(set) var new: [Finding] = []
    /// In the previous run's order; set by `finish`.
    package private(set) var gone: [QueryState.Entry] = []
    /// Per previous file, its entries this run did not have (files this run met with matches).
    private var goneByFile: [(file: Int, entries: [QueryState.Entry])] = []
    /// Which of the previous run's files this run met with matches (when comparable).
    private var met: [Bool]

    package init(_ context: Context) {
        self.context = context
        previousProblem = context.previousProblem
        result = QueryRunResult(query: context.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0)
        met = Array(repeating: false, count: context.comparable ? context.previous?.files.count ?? 0 : 0)
    }

    /// A whole run at once (the audit's gates, which keep no state): every file's matches added.
    package init(result: QueryRunResult) {
        self.init(Context(query: result.query, keepsFindings: true))
        for file in result.files { record(context.file(path: file.path, matches: file.matches)) }
        finish(result)
    }

    /// Adds one file (files come in listing order).
    package mutating func record(_ file: FileRefresh) {
        matchCount += file.matchCount
        if file.matchCount > 0 { fileCount += 1 }
        if let index = file.previousFile, index < met.count {
            met[index] = true
            if !file.gone.isEmpty { goneByFile.append((index, file.gone)) }
        }
        if file.previousUnreadable { previousProblem = "a block of \(file.path) in its segment is damaged" }
        new += file.new
        if context.keepsFindings { findings += file.findings }
    }

    /// After the last file: the run's counts, and what is gone since the previous run — the
    /// blocks of the previous run's files this run did not meet are read now, so call this
    /// before a new state replaces them.
    package mutating func finish(_ result: QueryRunResult) {
        self.result = result
        if comparable, let previous {
            for index in met.indices where !met[index] {
                guard let entries = previous.entries(index) else {
                    previousProblem = "a block of \(previous.files[index].path) in its segment is damaged"
                    break
                }
                goneByFile.append((index, entries))
            }
        }
        if comparable {
            gone = goneByFile.sorted { $0.file < $1.file }.flatMap(\.entries)
        } else {
            new = []
        }
        goneByFile = []
        met = []
    }
    /// "saved query 'todos': Open TODOs": the query and its description (its pattern when it
    /// has none), as headings, JSON and SARIF show a match.
    static func message(for query: SavedQuery) -> String {
        let about =
            query.description.isEmpty
            ? "\(query.kind == .regex ? "/\(query.pattern)/" : "'\(query.pattern)'")" : query.description
        return lead(for: query) + about
    }

    /// "saved query 'todos': ", "saved query 'no-fixme' expects no matches: ".
    static func lead(for query: SavedQuery) -> String {
        query.expectNone ? "saved query '\(query.name)' expects no matches: " : "saved query '\(query.name)': "
    }

    /// Whether this query is a gate that failed.
    package var failsGate: Bool { query.query.expectNone && matchCount > 0 }
}

/// One query's matches in one file, made ready on the thread that searched the file: the
/// count, what is new and gone in it, the findings when kept, and the bytes a streamed run
/// writes for them.
package struct FileRefresh: Sendable {
    package var path: String
    /// The file's key as this run read it (nil for a source without one).
    package var key: FileKey?
    package var matchCount = 0
    /// Every match's finding, when the run keeps them.
    package var findings: [Finding] = []
    /// The file among the previous run's files with matches, when comparable.
    var previousFile: Int?
    /// Whether the file's block of the previous state stands as it is (unchanged file).
    var keepsPreviousBlock = false
    /// Whether the file's previous block could not be read.
    var previousUnreadable = false
    var new: [Finding] = []
    var gone: [QueryState.Entry] = []
    /// The file's lines of the text report, when streamed.
    var text: [UInt8] = []
    /// The file's block of the query's new state (empty when the previous one is kept).
    var state: [UInt8] = []

    init(path: String, key: FileKey? = nil, matchCount: Int, findings: [Finding] = []) {
        self.path = path
        self.key = key
        self.matchCount = matchCount
        self.findings = findings
    }
}
