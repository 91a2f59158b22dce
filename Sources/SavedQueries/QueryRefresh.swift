import ShipcheckCore

/// One query's run turned into findings, file by file as the scan completes them, and compared
/// with its previous run. What it keeps grows with the match count only as 16-byte
/// fingerprints (and the findings themselves when `keepsFindings`: a report format other than
/// the streamed text needs them all at the end).
public struct QueryRefresh: Sendable {
    /// What turning one file's matches into findings needs: read-only, so every searching
    /// thread can use it at once.
    public struct Context: Sendable {
        public let query: ScopedQuery
        public let previous: QueryState.Baseline?
        /// Whether the previous run searched with the same pattern and options (else no diff).
        public let comparable: Bool
        let keepsFindings: Bool
        private let message: String
        private let fixHint: String?
        private let identityPrefix: String

        public init(query: ScopedQuery, previous: QueryState.Baseline?, keepsFindings: Bool) {
            self.query = query
            self.previous = previous
            self.keepsFindings = keepsFindings
            let saved = query.query
            comparable = previous?.signature == saved.definitionSignature
            message = QueryRefresh.message(for: saved)
            fixHint = saved.expectNone ? "remove the match, or narrow the query with 'shipcheck query edit \(saved.name)'" : nil
            identityPrefix = "\(query.scope.rawValue):\(saved.name)\u{1F}"
        }

        /// One file's matches as fingerprinted findings, with the ones the previous run did not have.
        public func file(path: String, matches: [QueryMatch]) -> FileRefresh {
            var findings = matches.map { match in
                Finding(ruleID: SavedQueryRule.id, severity: query.query.effectiveSeverity, message: message,
                        location: .source(SourceLocation(path: path, line: match.line, column: match.column, endLine: match.line, endColumn: match.endColumn)),
                        snippet: match.lineText, fixHint: fixHint,
                        // Path (added by the fingerprinter), query and line text — never the line
                        // number — so an unrelated edit above a match keeps its fingerprint.
                        identity: identityPrefix + Fingerprinter.normalized(match.lineText))
            }
            // The fingerprint's occurrence count is per path: one file's findings are all it needs.
            Fingerprinter.assign(&findings)
            var file = FileRefresh(findings: findings)
            for finding in findings {
                guard let value = StateFileFormat.fingerprint(finding.fingerprint) else { continue }
                file.fingerprints.append(value)
                if comparable, let previous, !previous.contains(value) { file.new.append(finding) }
            }
            return file
        }
    }

    public let context: Context
    public var query: ScopedQuery { context.query }
    public var previous: QueryState.Baseline? { context.previous }
    public var comparable: Bool { context.comparable }
    /// The run's counts, set by `finish`.
    public private(set) var result: QueryRunResult
    /// Every finding, fingerprinted, in reading order — when kept.
    public private(set) var findings: [Finding] = []
    public private(set) var matchCount = 0
    public private(set) var fileCount = 0
    public private(set) var new: [Finding] = []
    /// Set by `finish`.
    public private(set) var gone: [QueryState.Entry] = []
    private var fingerprints: [UInt128] = []

    public init(_ context: Context) {
        self.context = context
        result = QueryRunResult(query: context.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0)
    }

    /// A whole run at once (the audit's gates, which keep no state): every file's matches added.
    public init(result: QueryRunResult, previous: QueryState.Baseline?) {
        self.init(Context(query: result.query, previous: previous, keepsFindings: true))
        for file in result.files { record(context.file(path: file.path, matches: file.matches)) }
        finish(result)
    }

    /// Adds one file (files come in listing order).
    public mutating func record(_ file: FileRefresh) {
        matchCount += file.findings.count
        if !file.findings.isEmpty { fileCount += 1 }
        if comparable { fingerprints += file.fingerprints }  // only what is gone needs them
        new += file.new
        if context.keepsFindings { findings += file.findings }
    }

    /// After the last file: the run's counts, and what is gone since the previous run (read
    /// from its state file, so call this before a new state replaces it).
    public mutating func finish(_ result: QueryRunResult) {
        self.result = result
        // Fingerprints are unique within a run: the previous run's that are still here are the
        // current ones that are not new, and only when some are missing is its file read again.
        if comparable, let previous, previous.matchCount > fingerprints.count - new.count {
            fingerprints.sort()
            gone = previous.entries(notIn: fingerprints)
        }
        fingerprints = []
    }

    static func message(for query: SavedQuery) -> String {
        let about = query.description.isEmpty ? "\(query.kind == .regex ? "/\(query.pattern)/" : "'\(query.pattern)'")" : query.description
        return query.expectNone ? "saved query '\(query.name)' expects no matches: \(about)" : "saved query '\(query.name)': \(about)"
    }

    /// Whether this query is a gate that failed.
    public var failsGate: Bool { query.query.expectNone && matchCount > 0 }
}

/// One query's matches in one file, made ready on the thread that searched the file: the
/// findings, their fingerprints, the new ones, and the bytes a streamed run writes for them.
public struct FileRefresh: Sendable {
    public var findings: [Finding]
    var fingerprints: [UInt128] = []
    var new: [Finding] = []
    /// The file's lines of the text report, when streamed.
    var text: [UInt8] = []
    /// The file's lines of the query's new state.
    var state: [UInt8] = []
}
