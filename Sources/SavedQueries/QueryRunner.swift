import ShipcheckCore

/// A query together with the store it came from.
public struct ScopedQuery: Sendable, Hashable {
    public var query: SavedQuery
    public var scope: SavedQuery.Scope
    /// The store file, for messages.
    public var storePath: String

    public init(query: SavedQuery, scope: SavedQuery.Scope, storePath: String) {
        self.query = query
        self.scope = scope
        self.storePath = storePath
    }
}

/// The matches of one query in one file.
public struct FileMatches: Sendable, Hashable {
    public var path: String
    public var matches: [QueryMatch]
}

/// What one query found in one run.
public struct QueryRunResult: Sendable {
    public var query: ScopedQuery
    /// Files with matches, by path.
    public var files: [FileMatches]
    /// Files whose search the timeout stopped part-way.
    public var cutShort: [String]
    /// Files the timeout left unsearched.
    public var notSearched: Int
    public var filesSearched: Int

    /// Whether every file was searched to the end (only then is the result a fair baseline).
    public var isComplete: Bool { cutShort.isEmpty && notSearched == 0 }
    public var matchCount: Int { files.reduce(0) { $0 + $1.matches.count } }
}

/// Runs saved queries over the files of a root: every file is read once and searched by
/// every query that covers it, in parallel over files; a deadline bounds the whole run.
public struct QueryRunner: Sendable {
    public let root: String
    public let configuration: Configuration
    /// Seconds the run may take; nil: unbounded.
    public let timeout: Double?

    public static let defaultTimeout: Double = 600

    public init(root: String, configuration: Configuration, timeout: Double? = QueryRunner.defaultTimeout) {
        self.root = root
        self.configuration = configuration
        self.timeout = timeout
    }

    /// A query ready to search: patterns compiled and globs parsed once.
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
        var matches: [(query: Int, matches: [QueryMatch])] = []
        var cutShort: [Int] = []
        var notSearched: [Int] = []
        var searched: [Int] = []
        var error: InputError?
        var read = false
    }

    public func run(_ queries: [ScopedQuery]) -> (results: [QueryRunResult], inputErrors: [InputError], filesScanned: Int) {
        var inputErrors: [InputError] = []
        var prepared: [Prepared] = []
        for query in queries {
            do {
                let searcher = try QuerySearcher(query.query)
                prepared.append(Prepared(query: query, searcher: searcher, include: GlobList(query.query.include), exclude: GlobList(query.query.exclude)))
            } catch {
                inputErrors.append(InputError(path: query.storePath, message: error.message))
            }
        }
        // No lstat per listed file: the reader refuses symlinks, FIFOs and the like itself, and
        // `unreadable(_:_:)` sorts those refusals out — one syscall per file less on big trees.
        let enumeration = FileEnumerator(root: root, configuration: configuration, checksGitListedKinds: false).enumerate()
        inputErrors += enumeration.errors
        let storeFile = QueryStore.repository(root: ".", configuration: configuration).path
        let files = enumeration.files.filter { !Self.isShipcheckOwn($0.relativePath, storeFile: storeFile) }
        let deadline = Deadline(seconds: timeout)
        let sizeLimit = configuration.maxFileSize
        let searches = prepared
        let outcomes = files.parallelMap { file -> FileOutcome in
            Self.search(file, with: searches, sizeLimit: sizeLimit, deadline: deadline)
        }
        var results = prepared.map { QueryRunResult(query: $0.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0) }
        var filesScanned = 0
        for (file, outcome) in zip(files, outcomes) {
            if let error = outcome.error { inputErrors.append(error) }
            if outcome.read { filesScanned += 1 }
            for index in outcome.searched { results[index].filesSearched += 1 }
            for (index, matches) in outcome.matches { results[index].files.append(FileMatches(path: file.relativePath, matches: matches)) }
            for index in outcome.cutShort { results[index].cutShort.append(file.relativePath) }
            for index in outcome.notSearched { results[index].notSearched += 1 }
        }
        let seconds = timeout.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" } ?? ""
        for result in results {
            let name = result.query.query.name
            for path in result.cutShort {
                inputErrors.append(InputError(path: path, message: "query '\(name)': search cut short by the \(seconds)-second timeout (--timeout); later matches in this file are missing"))
            }
            if result.notSearched > 0 {
                inputErrors.append(InputError(path: root, message: "query '\(name)': \(result.notSearched) file\(result.notSearched == 1 ? "" : "s") not searched before the \(seconds)-second timeout (--timeout)"))
            }
        }
        return (results, inputErrors, filesScanned)
    }

    /// shipcheck's own files (the store holds the patterns themselves; state is derived).
    static func isShipcheckOwn(_ path: String, storeFile: String) -> Bool {
        path == storeFile || path.hasPrefix(".shipcheck/")
    }

    /// The error to report for a file that could not be read, or nil when skipping it is
    /// right: what the enumerator itself skips (a symlink, whose target inside the root is
    /// listed on its own; a submodule; a tracked file deleted from the work tree).
    private static func unreadable(_ file: ScannedFile, _ error: InputError) -> InputError? {
        switch FileKind.of(file.path) {
        case .symlink?:
            return FileEnumerator.symlinkProblem(file.path).map { InputError(path: FileEnumerator.escaped(file.relativePath), message: $0) }
        case .directory?, nil:
            return nil
        default:
            return error
        }
    }

    private static func search(_ file: ScannedFile, with queries: [Prepared], sizeLimit: Int, deadline: Deadline) -> FileOutcome {
        var outcome = FileOutcome()
        let covering = queries.indices.filter { queries[$0].covers(file.relativePath) }
        if covering.isEmpty { return outcome }
        if deadline.hasPassed {
            outcome.notSearched = covering
            return outcome
        }
        do {
            try SafeFileReader.withContents(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit) { buffer in
                outcome.read = true
                // Binary files are skipped, as git grep and ripgrep do.
                if ByteSearch.looksBinary(buffer) { return }
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
        } catch {
            outcome.error = unreadable(file, error)
        }
        return outcome
    }
}
