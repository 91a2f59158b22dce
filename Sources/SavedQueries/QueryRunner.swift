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
    /// Files with matches, by path (empty when the matches went to a sink).
    public var files: [FileMatches]
    /// Files whose search the timeout stopped part-way.
    public var cutShort: [String]
    /// Files the timeout left unsearched.
    public var notSearched: Int
    public var filesSearched: Int
    public var matchCount = 0

    /// Whether every file was searched to the end (only then is the result a fair baseline).
    public var isComplete: Bool { cutShort.isEmpty && notSearched == 0 }
}

/// Runs saved queries over the files of a root: a scan with one `QueryCheck`, whose every file
/// is read once and searched by every query that covers it; a deadline bounds the whole run.
public struct QueryRunner: Sendable {
    public let root: String
    public let configuration: Configuration
    /// Seconds the run may take; nil: unbounded.
    public let timeout: Double?
    public let source: any FileSource
    /// Where the scan reports how far it is (see `ScanPipeline.progress`).
    public let progress: ScanProgress?

    public static let defaultTimeout: Double = 600

    public init(
        root: String, configuration: Configuration, timeout: Double? = QueryRunner.defaultTimeout,
        source: any FileSource = DiskFileSource(),
        progress: ScanProgress? = nil
    ) {
        self.root = root
        self.configuration = configuration
        self.timeout = timeout
        self.source = source
        self.progress = progress
    }

    /// `sink` makes the sink for the queries whose patterns compile (see `QueryCheck`).
    public func run(_ queries: [ScopedQuery], sink: ([ScopedQuery]) -> (any QueryRunSink)? = { _ in nil })
        -> (results: [QueryRunResult], inputErrors: [InputError], filesScanned: Int)
    {
        let check = QueryCheck(queries: queries, configuration: configuration, timeout: timeout, sink: sink)
        // No lstat per listed file: the reader refuses symlinks, FIFOs and the like itself, and
        // the pipeline sorts those refusals out — one syscall per file less on big trees.
        let outcome = ScanPipeline(
            root: root, configuration: configuration, source: source, checksListedKinds: false, progress: progress
        ).run([check])
        let result = outcome.combined
        return (check.results, result.inputErrors, result.filesScanned)
    }
}
