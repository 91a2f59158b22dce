import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

/// Saved queries as one check of a scan: each file's buffer is searched by every query that
/// covers it (sharing one ASCII-folded copy when some need it). `query run` streams each
/// file's matches to its sink in listing order; the audit's gates (`SavedQueries.gates`)
/// report every match as a finding.
package final class QueryCheck: FileCheck {
    package let name = "saved queries"
    /// Borrowed by the threads searching files (`SharedObjects`).
    private let queries: SharedObjects<Prepared>
    /// One pass over a file that rules out the queries whose required texts it lacks.
    private let filter: RequiredTextFilter
    private let setupErrors: [InputError]
    private let timeout: Double?
    private let reportsFindings: Bool
    private let storeFile: String
    private let sink: (any QueryRunSink)?
    private let state = Mutex(State())
    /// No query has include / exclude globs: each covers every file (no per-file glob test).
    private let everyQueryCovers: Bool
    private let allQueries: [Int]
    /// Read per file without the lock: the deadline, set once by `prepare` (nanoseconds after
    /// `clockBase`; `.max`: none), files read, files every query searched with nothing to
    /// report (counted for each query at `finish` instead of each going through `pending`),
    /// and how many outcomes wait in `pending` (so a completed file with none takes no lock).
    private let clockBase = ContinuousClock.now
    private let deadlineOffset = Atomic<Int64>(.max)
    private let filesRead = StripedCounter()
    private let searchedByEveryQuery = StripedCounter()
    private let pendingCount = Atomic<Int>(0)

    /// A query ready to search: pattern compiled and globs parsed once.
    private final class Prepared: Sendable {
        let query: ScopedQuery
        let searcher: QuerySearcher
        let include: GlobList
        let exclude: GlobList

        init(query: ScopedQuery, searcher: QuerySearcher, include: GlobList, exclude: GlobList) {
            self.query = query
            self.searcher = searcher
            self.include = include
            self.exclude = exclude
        }

        func covers(_ path: String) -> Bool {
            (include.isEmpty || include.matches(path)) && !exclude.matches(path)
        }
    }

    /// One file's outcome for each query that covers it.
    private struct FileOutcome: Sendable {
        var path = ""
        var matches: [(query: Int, matches: [QueryMatch])] = []
        /// With a sink: each query's matches made ready by it (`matches` is then empty).
        var prepared: [(query: Int, file: FileRefresh)] = []
        var cutShort: [Int] = []
        var notSearched: [Int] = []
        var searched: [Int] = []
    }

    private struct State {
        var root = ""
        /// Outcomes of files read but not yet completed that have something to report (at most
        /// the pipeline's files in flight).
        var pending: [Int: FileOutcome] = [:]
        var results: [QueryRunResult] = []
        /// Files' matches from earlier runs (`ScanContext.results`), when `cachesResults`.
        var resultStore: (any ResultStore)?
    }

    /// Whether each file's matches are kept in the scan's result store: for the audit's gates,
    /// which report findings; `query run` keeps its own state of what it found.
    private var cachesResults: Bool { reportsFindings && sink == nil }
    /// What decides a file's matches besides its path and bytes: the queries.
    private let cacheSettings: String

    /// `setupErrors`: problems met while loading the queries (a store that does not parse),
    /// reported with the check's result. With `reportsFindings`, every match is a finding. With
    /// a `sink` (made for the queries whose patterns compile), each file's matches go to it as
    /// the scan completes the file, instead of being kept in `results`.
    package init(
        queries: [ScopedQuery], configuration: Configuration, timeout: Double?, setupErrors: [InputError] = [],
        reportsFindings: Bool = false,
        sink makeSink: ([ScopedQuery]) -> (any QueryRunSink)? = { _ in nil }
    ) {
        var prepared: [Prepared] = []
        var errors = setupErrors
        for query in queries {
            do {
                prepared.append(
                    Prepared(
                        query: query, searcher: try QuerySearcher(query.query),
                        include: GlobList(query.query.include), exclude: GlobList(query.query.exclude)))
            } catch {
                errors.append(InputError(path: query.storePath, message: error.message))
            }
        }
        self.queries = SharedObjects(prepared)
        everyQueryCovers = prepared.allSatisfy { $0.include.isEmpty && $0.exclude.isEmpty }
        allQueries = Array(prepared.indices)
        filter = RequiredTextFilter(prepared.map(\.searcher.matcher))
        self.setupErrors = errors
        sink = makeSink(prepared.map(\.query))
        state.withLock {
            $0.results = prepared.map {
                QueryRunResult(query: $0.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0)
            }
        }
        self.timeout = timeout
        self.reportsFindings = reportsFindings
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        cacheSettings = prepared.map { prepared in
            (try? encoder.encode(prepared.query.query)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }.joined(separator: "\u{1F}")
        storeFile = QueryStore.repository(root: ".", configuration: configuration).path
    }

    /// The rule among `rules` of every match (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.id == SavedQueryRule.id }
    }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        state.withLock {
            $0.root = context.root
            $0.resultStore = context.results
        }
        if let instant = Deadline(seconds: timeout).instant {
            let offset = (instant - clockBase).components
            deadlineOffset.store(
                offset.seconds * 1_000_000_000 + offset.attoseconds / 1_000_000_000, ordering: .releasing)
        }
        return []
    }

    private var deadline: Deadline {
        let offset = deadlineOffset.load(ordering: .acquiring)
        return Deadline(at: offset == .max ? nil : clockBase.advanced(by: .nanoseconds(offset)))
    }

    private func covers(_ index: Int, _ path: String) -> Bool {
        everyQueryCovers || queries.borrow(index) { $0.covers(path) }
    }

    /// Once the deadline has passed, a file is not read for the queries: it counts as not searched.
    package func wants(_ file: ScannedFile) -> Bool {
        guard !Self.isShipcheckOwn(file.relativePath, storeFile: storeFile) else { return false }
        guard queries.count > 0, everyQueryCovers || queries.indices.contains(where: { covers($0, file.relativePath) })
        else { return false }
        guard deadline.hasPassed else { return true }
        state.withLock { state in
            for index in queries.indices where covers(index, file.relativePath) {
                state.results[index].notSearched += 1
            }
        }
        return false
    }

    package func inspect(_ contents: FileContents) {
        filesRead.add(1)
        let path = contents.file.relativePath
        let slot = cachesResults ? slot(path) : nil
        let key = slot?.key(contentHash: ContentHash.of(contents))
        if let key, let known = slot?.store?.value(QueryFileResult.self, for: key) {
            return take(known, path: path, index: contents.index)
        }
        let covering = everyQueryCovers ? allQueries : queries.indices.filter { covers($0, path) }
        let outcome = contents.withBytes { buffer -> FileOutcome? in
            // Binary files are skipped, as git grep and ripgrep do.
            guard !buffer.looksBinary() else { return nil }
            return search(buffer, of: contents, covering: covering)
        }
        // A search the deadline or the engine's limit cut short is not what the bytes decide.
        if let key, outcome.map({ $0.cutShort.isEmpty && $0.notSearched.isEmpty }) ?? true {
            slot?.store?.record(
                QueryFileResult(
                    isBinary: outcome == nil,
                    matches: outcome?.matches.map { QueryFileResult.Matches(query: $0.query, matches: $0.matches) }
                        ?? []),
                for: key)
        }
        if let outcome { keep(outcome, covering: covering, index: contents.index) }
    }

    package func inspectUnchanged(_ file: UnchangedFile) -> Bool {
        guard cachesResults, let known = slot(file.file.relativePath).result(QueryFileResult.self, of: file) else {
            return false
        }
        filesRead.add(1)
        take(known, path: file.file.relativePath, index: file.index)
        return true
    }

    private func slot(_ path: String) -> FileResultSlot {
        FileResultSlot(store: state.withLock { $0.resultStore }, kind: name, path: path, settings: cacheSettings)
    }

    /// A file's matches from an earlier run, as its search would have left them.
    private func take(_ known: QueryFileResult, path: String, index: Int) {
        guard !known.isBinary else { return }
        let covering = everyQueryCovers ? allQueries : queries.indices.filter { covers($0, path) }
        var outcome = FileOutcome(path: path)
        outcome.matches = known.matches.map { ($0.query, $0.matches) }
        keep(outcome, covering: covering, index: index)
    }

    /// Counts a searched file's outcome, and keeps it for `fileCompleted` when it has something
    /// to report.
    private func keep(_ outcome: FileOutcome, covering: [Int], index: Int) {
        var outcome = outcome
        let searched = covering.count - outcome.notSearched.count
        if everyQueryCovers, outcome.notSearched.isEmpty {
            searchedByEveryQuery.add(1)
        } else {
            outcome.searched = Array(covering[..<searched])
        }
        if !outcome.matches.isEmpty || !outcome.prepared.isEmpty || !outcome.cutShort.isEmpty
            || !outcome.notSearched.isEmpty || !outcome.searched.isEmpty
        {
            state.withLock { $0.pending[index] = outcome }
            pendingCount.add(1, ordering: .releasing)
        }
    }

    /// One file's bytes (lent for the call) searched by the queries at `covering` (indices
    /// into `queries`, in order); nil for the common file, which every query searched and none
    /// can match.
    private func search(_ buffer: borrowing ByteView, of contents: FileContents, covering: [Int]) -> FileOutcome? {
        let deadline = deadline
        // A query none of whose required texts is in the file is searched, with no match. With
        // one query there is nothing to rule out: its own search finds its text as fast.
        let possible = covering.count < 2 ? nil : filter.possible(in: buffer, among: covering)
        // The common file: every query searched it, none can match. Nothing to keep in order.
        if let possible, possible.isEmpty, everyQueryCovers, !deadline.hasPassed {
            return FileOutcome(path: contents.file.relativePath)
        }
        var outcome = FileOutcome(path: contents.file.relativePath)
        // (`covering`, an array every thread shares, is read by index: iterating it or picking
        // between it and `possible` would retain it.)
        func wantFoldedBuffer(_ indices: [Int]) -> Bool {
            indices.indices.contains { position in queries.borrow(indices[position]) { $0.searcher.wantsFoldedBuffer } }
        }
        let foldedWanted = if let possible { wantFoldedBuffer(possible) } else { wantFoldedBuffer(covering) }
        let folded: [UInt8] = foldedWanted ? Matcher.folded(buffer) : []
        var next = possible?.makeIterator(), nextPossible = next?.next()
        // Worked out for the first query with a match, then shared by the others.
        var digest: PathDigest?
        // The queries searched before the deadline passed (the rest were not searched).
        var searched = covering.count
        folded.withByteView { folded in
            MatchSubject.with(bytes: buffer, folded: folded) { subject in
                for position in covering.indices {
                    let index = covering[position]
                    if deadline.hasPassed {
                        searched = position
                        break
                    }
                    if possible != nil {
                        guard index == nextPossible else { continue }
                        nextPossible = next?.next()
                    }
                    let cutShort: Bool
                    if sink != nil {
                        let found = queries.borrow(index) {
                            $0.searcher.matcher.matches(in: &subject, deadline: deadline)
                        }
                        // The sink's per-file work (fingerprints, report lines) runs here, in parallel.
                        if !found.ranges.isEmpty, let sink {
                            if digest == nil { digest = PathDigest(outcome.path) }
                            outcome.prepared.append(
                                (
                                    index,
                                    sink.prepare(
                                        query: index, path: outcome.path, digest: digest!, key: contents.key,
                                        bytes: buffer,
                                        ranges: found.ranges)
                                ))
                        }
                        cutShort = found.cutShort
                    } else {
                        let found = queries.borrow(index) { $0.searcher.search(&subject, deadline: deadline) }
                        if !found.matches.isEmpty { outcome.matches.append((index, found.matches)) }
                        cutShort = found.cutShort
                    }
                    if cutShort { outcome.cutShort.append(index) }
                }
            }
        }
        if searched < covering.count { outcome.notSearched = Array(covering[searched...]) }
        return outcome
    }

    /// Files come here in listing order: each query's matches go to the sink, or are kept.
    package func fileCompleted(_ index: Int) {
        // The file's inspect ran before this call: an outcome it left is counted.
        guard pendingCount.load(ordering: .acquiring) > 0 else { return }
        let outcome: FileOutcome? = state.withLock { state in
            guard let outcome = state.pending.removeValue(forKey: index) else { return nil }
            pendingCount.subtract(1, ordering: .relaxed)
            for query in outcome.searched { state.results[query].filesSearched += 1 }
            for query in outcome.cutShort { state.results[query].cutShort.append(outcome.path) }
            for query in outcome.notSearched { state.results[query].notSearched += 1 }
            for (query, matches) in outcome.matches {
                state.results[query].matchCount += matches.count
                state.results[query].files.append(FileMatches(path: outcome.path, matches: matches))
            }
            for (query, file) in outcome.prepared { state.results[query].matchCount += file.matchCount }
            return outcome
        }
        if let sink, let outcome {
            for (query, file) in outcome.prepared { sink.matched(query: query, file) }
        }
    }

    package func finish() -> CheckResult {
        let (result, results) = state.withLock { state in
            let searchedByEveryQuery = searchedByEveryQuery.take()
            for index in state.results.indices { state.results[index].filesSearched += searchedByEveryQuery }
            let results = state.results
            var result = CheckResult(inputErrors: setupErrors, filesScanned: filesRead.total)
            let seconds = timeout.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" } ?? ""
            for run in results {
                let name = run.query.query.name
                for path in run.cutShort {
                    result.inputErrors.append(
                        InputError(
                            path: path,
                            message:
                                "query '\(name)': search cut short by the \(seconds)-second timeout (--timeout) or the regex engine's backtracking limit; later matches in this file are missing"
                        ))
                }
                if run.notSearched > 0 {
                    result.inputErrors.append(
                        InputError(
                            path: state.root,
                            message:
                                "query '\(name)': \(run.notSearched) file\(run.notSearched == 1 ? "" : "s") not searched before the \(seconds)-second timeout (--timeout)"
                        ))
                }
                if reportsFindings { result.findings += QueryRefresh(result: run).findings }
            }
            return (result, results)
        }
        sink?.scanEnded(results)
        return result
    }

    /// What each query found (after `finish`); without a sink, with every file's matches.
    package var results: [QueryRunResult] { state.withLock { $0.results } }

    /// shipcheck's own files (the store holds the patterns themselves; state is derived).
    static func isShipcheckOwn(_ path: String, storeFile: String) -> Bool {
        path == storeFile || path.hasPrefix(".shipcheck/")
    }
}

/// Where `query run` sends matches: made ready on the searching threads, then handed over in
/// listing order as the scan completes each file.
package protocol QueryRunSink: AnyObject, Sendable {
    /// The matches of query `query` (an index into the queries the sink was made for) in one
    /// file, as byte ranges of its contents, on the thread that searched it (many at once);
    /// `digest` is the path's (worked out once for all the file's queries), `key` the file's
    /// as it was read (`FileContents.key`).
    func prepare(
        query: Int, path: String, digest: PathDigest, key: FileKey?, bytes: borrowing ByteView, ranges: [Range<Int>]
    ) -> FileRefresh

    /// A prepared file, in listing order, one call at a time.
    func matched(query: Int, _ file: FileRefresh)

    /// After the last file, each query's result (in the sink's order), from the check's
    /// `finish`: before the scan lets go of its listing and passes, so work that needs nothing
    /// more from the scan can start beside that.
    func scanEnded(_ results: [QueryRunResult])
}

/// What the audit's gates keep of one file in the result store: its matches by query.
private struct QueryFileResult: Codable {
    struct Matches: Codable {
        var query: Int
        var matches: [QueryMatch]
    }

    /// Skipped as binary, unsearched.
    var isBinary: Bool
    var matches: [Matches]
}
