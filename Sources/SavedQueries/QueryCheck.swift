import ShipcheckCore
import Synchronization

/// Saved queries as one check of a scan: each file's buffer is searched by every query that
/// covers it (sharing one ASCII-folded copy when some need it). `query run` reads `results`;
/// the audit's gates (`SavedQueries.gates`) report every match as a finding.
public final class QueryCheck: FileCheck {
    public let name = "saved queries"
    private let queries: [Prepared]
    private let setupErrors: [InputError]
    private let timeout: Double?
    private let reportsFindings: Bool
    private let storeFile: String
    private let state = Mutex(State())

    /// A query ready to search: pattern compiled and globs parsed once.
    private struct Prepared: Sendable {
        var query: ScopedQuery
        var searcher: QuerySearcher
        var include: GlobList
        var exclude: GlobList

        func covers(_ path: String) -> Bool {
            (include.isEmpty || include.matches(path)) && !exclude.matches(path)
        }
    }

    /// One file's outcome for each query that covers it.
    private struct FileOutcome: Sendable {
        var index = 0
        var path = ""
        var matches: [(query: Int, matches: [QueryMatch])] = []
        var cutShort: [Int] = []
        var notSearched: [Int] = []
        var searched: [Int] = []
    }

    private struct State {
        var deadline = Deadline(seconds: nil)
        var root = ""
        var outcomes: [FileOutcome] = []
        var read = 0
        var results: [QueryRunResult] = []
    }

    /// `setupErrors`: problems met while loading the queries (a store that does not parse),
    /// reported with the check's result. With `reportsFindings`, every match is a finding.
    public init(queries: [ScopedQuery], configuration: Configuration, timeout: Double?, setupErrors: [InputError] = [], reportsFindings: Bool = false) {
        var prepared: [Prepared] = []
        var errors = setupErrors
        for query in queries {
            do {
                prepared.append(Prepared(query: query, searcher: try QuerySearcher(query.query),
                                         include: GlobList(query.query.include), exclude: GlobList(query.query.exclude)))
            } catch {
                errors.append(InputError(path: query.storePath, message: error.message))
            }
        }
        self.queries = prepared
        self.setupErrors = errors
        self.timeout = timeout
        self.reportsFindings = reportsFindings
        storeFile = QueryStore.repository(root: ".", configuration: configuration).path
    }

    /// The rule among `rules` of every match (for reports' rule lists).
    public static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.id == SavedQueryRule.id }
    }

    public func prepare(_ context: ScanContext) -> [ScannedFile] {
        state.withLock {
            $0.deadline = Deadline(seconds: timeout)
            $0.root = context.root
        }
        return []
    }

    /// Once the deadline has passed, a file is not read for the queries: it counts as not searched.
    public func wants(_ file: ScannedFile) -> Bool {
        guard !Self.isShipcheckOwn(file.relativePath, storeFile: storeFile) else { return false }
        let covering = queries.indices.filter { queries[$0].covers(file.relativePath) }
        if covering.isEmpty { return false }
        return state.withLock { state in
            guard state.deadline.hasPassed else { return true }
            state.outcomes.append(FileOutcome(index: .max, path: file.relativePath, notSearched: covering))
            return false
        }
    }

    public func inspect(_ contents: FileContents) -> FollowUp {
        let deadline = state.withLock { $0.deadline }
        let buffer = contents.bytes
        var outcome = FileOutcome(index: contents.index, path: contents.file.relativePath)
        // Binary files are skipped, as git grep and ripgrep do.
        if !ByteSearch.looksBinary(buffer) {
            let covering = queries.indices.filter { queries[$0].covers(contents.file.relativePath) }
            let folded: [UInt8] = covering.contains { queries[$0].searcher.wantsFoldedBuffer } ? Matcher.folded(buffer) : []
            folded.withUnsafeBytes { folded in
                for index in covering {
                    if deadline.hasPassed {
                        outcome.notSearched.append(index)
                        continue
                    }
                    let found = queries[index].searcher.search(buffer, folded: folded, deadline: deadline)
                    outcome.searched.append(index)
                    if !found.matches.isEmpty { outcome.matches.append((index, found.matches)) }
                    if found.cutShort { outcome.cutShort.append(index) }
                }
            }
        }
        state.withLock { state in
            state.read += 1
            if !outcome.matches.isEmpty || !outcome.cutShort.isEmpty || !outcome.notSearched.isEmpty || !outcome.searched.isEmpty {
                state.outcomes.append(outcome)
            }
        }
        return .none
    }

    public func finish() -> CheckResult {
        state.withLock { state in
            var results = queries.map { QueryRunResult(query: $0.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0) }
            for outcome in state.outcomes.sorted(by: { $0.index < $1.index }) {
                for index in outcome.searched { results[index].filesSearched += 1 }
                for (index, matches) in outcome.matches { results[index].files.append(FileMatches(path: outcome.path, matches: matches)) }
                for index in outcome.cutShort { results[index].cutShort.append(outcome.path) }
                for index in outcome.notSearched { results[index].notSearched += 1 }
            }
            var result = CheckResult(inputErrors: setupErrors, filesScanned: state.read)
            let seconds = timeout.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" } ?? ""
            for run in results {
                let name = run.query.query.name
                for path in run.cutShort {
                    result.inputErrors.append(InputError(path: path, message: "query '\(name)': search cut short by the \(seconds)-second timeout (--timeout); later matches in this file are missing"))
                }
                if run.notSearched > 0 {
                    result.inputErrors.append(InputError(path: state.root, message: "query '\(name)': \(run.notSearched) file\(run.notSearched == 1 ? "" : "s") not searched before the \(seconds)-second timeout (--timeout)"))
                }
                if reportsFindings { result.findings += QueryRefresh(result: run, previous: nil).findings }
            }
            state.results = results
            return result
        }
    }

    /// What each query found (after `finish`).
    public var results: [QueryRunResult] { state.withLock { $0.results } }

    /// shipcheck's own files (the store holds the patterns themselves; state is derived).
    static func isShipcheckOwn(_ path: String, storeFile: String) -> Bool {
        path == storeFile || path.hasPrefix(".shipcheck/")
    }
}
