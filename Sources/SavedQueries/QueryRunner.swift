import ScanEngine
import ShipcheckCore

/// A query together with the store it came from.
package struct ScopedQuery: Sendable, Hashable {
    package var query: SavedQuery
    package var scope: SavedQuery.Scope
    /// The store file, for messages.
    package var storePath: String

    package init(query: SavedQuery, scope: SavedQuery.Scope, storePath: String) {
        self.query = query
        self.scope = scope
        self.storePath = storePath
    }
}

/// The matches of one query in one file.
package struct FileMatches: Sendable, Hashable {
    package var path: String
    package var matches: [QueryMatch]
}

/// What one query found in one run.
package struct QueryRunResult: Sendable {
    package var query: ScopedQuery
    /// Files with matches, by path (empty when the matches went to a sink).
    package var files: [FileMatches]
    /// Files whose search the timeout stopped part-way.
    package var cutShort: [String]
    /// Files the timeout left unsearched.
    package var notSearched: Int
    package var filesSearched: Int
    package var matchCount = 0

    /// Whether every file was searched to the end (only then is the result a fair baseline).
    package var isComplete: Bool { cutShort.isEmpty && notSearched == 0 }
}

/// Runs saved queries over the files of a root: a scan with one `QueryCheck`, whose every file
/// is read once and searched by every query that covers it; a deadline bounds the whole run.
package struct QueryRunner: Sendable {
    package let root: String
    package let configuration: Configuration
    /// Seconds the run may take; nil: unbounded.
    package let timeout: Double?
    package let source: any FileSource
    /// Where the scan reports how far it is (see `ReadPass.progress`).
    package let progress: ScanProgress?

    package static let defaultTimeout: Double = 600

    package init(
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
    package func run(_ queries: [ScopedQuery], sink: ([ScopedQuery]) -> (any QueryRunSink)? = { _ in nil })
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
