import ShipcheckCore

/// One query's run turned into findings, file by file as the scan completes them, and compared
/// with its previous run. What it keeps grows with the match count only as a bit per previous
/// fingerprint (and the findings themselves when `keepsFindings`: a report format other than
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
        /// Hashed after the path into every fingerprint: the query's scope and name.
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

        /// One file's matches (as `QuerySearcher.search` gives them) as fingerprinted findings,
        /// with the ones the previous run did not have.
        public func file(path: String, matches: [QueryMatch]) -> FileRefresh {
            var fingerprints = MatchFingerprints(path: path, identityPrefix: identityPrefix)
            let values = matches.map { match in
                var text = match.lineText
                return text.withUTF8 { fingerprints.next(lineText: UnsafeRawBufferPointer($0)) }
            }
            let findings = zip(matches, values).map { match, value in
                finding(path: path, line: match.line, column: match.column, endColumn: match.endColumn, snippet: match.lineText, fingerprint: value)
            }
            var file = FileRefresh(matchCount: matches.count, findings: keepsFindings ? findings : [])
            for index in compare(values, into: &file) { file.new.append(findings[index]) }
            return file
        }

        /// One file's matches straight from its bytes, with no string or finding per match
        /// unless one is kept or new: the fingerprints, the lines of the query's new state and
        /// (with `text`) of the text report.
        func file(path: String, bytes: UnsafeRawBufferPointer, ranges: [Range<Int>], text: QueryRunText.Layout?) -> FileRefresh {
            var file = FileRefresh(matchCount: ranges.count)
            var fingerprints = MatchFingerprints(path: path, identityPrefix: identityPrefix)
            let state = StateFileFormat.EntryWriter(path: path)
            var report = text.map { QueryRunText.FileLines(layout: $0, path: path) }
            var lines = LineCursor(bytes)
            var values: [UInt128] = []
            values.reserveCapacity(ranges.count)
            file.state.reserveCapacity(ranges.count * 96)
            for range in ranges {
                let place = MatchPlace(range, in: bytes, lines: &lines)
                let lineText = UnsafeRawBufferPointer(rebasing: bytes[place.text])
                let value = fingerprints.next(lineText: lineText)
                values.append(value)
                state.append(fingerprint: value, line: place.line, lineText: lineText, to: &file.state)
                report?.append(place, lineText: lineText, to: &file.text)
                if keepsFindings { file.findings.append(finding(path: path, place: place, lineText: lineText, fingerprint: value)) }
            }
            let new = compare(values, into: &file)
            if keepsFindings {
                for index in new { file.new.append(file.findings[index]) }
            } else if !new.isEmpty {
                lines = LineCursor(bytes)
                for index in new {
                    let place = MatchPlace(ranges[index], in: bytes, lines: &lines)
                    file.new.append(finding(path: path, place: place, lineText: UnsafeRawBufferPointer(rebasing: bytes[place.text]), fingerprint: values[index]))
                }
            }
            return file
        }

        /// Looks a file's fingerprints up among the previous run's (one after another, so the
        /// processor overlaps their cache misses), notes the ones met, and returns the indexes
        /// of the new ones — none without a comparable previous run.
        private func compare(_ values: [UInt128], into file: inout FileRefresh) -> [Int] {
            guard comparable, let previous else { return [] }
            var new: [Int] = []
            for (index, value) in values.enumerated() {
                if let slot = previous.index(of: value) { file.seen.append(slot) } else { new.append(index) }
            }
            return new
        }

        private func finding(path: String, place: MatchPlace, lineText: UnsafeRawBufferPointer, fingerprint: UInt128) -> Finding {
            finding(path: path, line: place.line, column: place.column, endColumn: place.endColumn, snippet: String(lossyUTF8: lineText), fingerprint: fingerprint)
        }

        private func finding(path: String, line: Int, column: Int, endColumn: Int, snippet: String, fingerprint: UInt128) -> Finding {
            var finding = Finding(ruleID: SavedQueryRule.id, severity: query.query.effectiveSeverity, message: message,
                                  location: .source(SourceLocation(path: path, line: line, column: column, endLine: line, endColumn: endColumn)),
                                  snippet: snippet, fixHint: fixHint, identity: identityPrefix + Fingerprinter.normalized(snippet))
            finding.fingerprint = StableHash.hex(fingerprint)
            return finding
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
    /// Which of the previous run's fingerprints this run has had (when comparable).
    private var seen: QueryState.Baseline.Marks

    public init(_ context: Context) {
        self.context = context
        result = QueryRunResult(query: context.query, files: [], cutShort: [], notSearched: 0, filesSearched: 0)
        seen = (context.comparable ? context.previous?.unmarked() : nil) ?? QueryState.Baseline.Marks(count: 0)
    }

    /// A whole run at once (the audit's gates, which keep no state): every file's matches added.
    public init(result: QueryRunResult, previous: QueryState.Baseline?) {
        self.init(Context(query: result.query, previous: previous, keepsFindings: true))
        for file in result.files { record(context.file(path: file.path, matches: file.matches)) }
        finish(result)
    }

    /// Adds one file (files come in listing order).
    public mutating func record(_ file: FileRefresh) {
        matchCount += file.matchCount
        if file.matchCount > 0 { fileCount += 1 }
        for index in file.seen { seen.mark(index) }
        new += file.new
        if context.keepsFindings { findings += file.findings }
    }

    /// After the last file: the run's counts, and what is gone since the previous run (read
    /// from its state file, so call this before a new state replaces it).
    public mutating func finish(_ result: QueryRunResult) {
        self.result = result
        // Only when some of the previous run's fingerprints were not met is its file read again.
        if comparable, let previous, seen.marked < previous.matchCount {
            gone = previous.entries(unmarkedIn: seen)
        }
        seen = QueryState.Baseline.Marks(count: 0)
    }

    static func message(for query: SavedQuery) -> String {
        let about = query.description.isEmpty ? "\(query.kind == .regex ? "/\(query.pattern)/" : "'\(query.pattern)'")" : query.description
        return query.expectNone ? "saved query '\(query.name)' expects no matches: \(about)" : "saved query '\(query.name)': \(about)"
    }

    /// Whether this query is a gate that failed.
    public var failsGate: Bool { query.query.expectNone && matchCount > 0 }
}

/// One query's matches in one file, made ready on the thread that searched the file: the
/// count, the previous run's fingerprints met, the new findings, the findings when kept, and
/// the bytes a streamed run writes for them.
public struct FileRefresh: Sendable {
    public var matchCount = 0
    /// Every match's finding, when the run keeps them.
    public var findings: [Finding] = []
    /// Slots of the previous run's fingerprints these matches have (`Baseline.index(of:)`).
    var seen: [Int] = []
    var new: [Finding] = []
    /// The file's lines of the text report, when streamed.
    var text: [UInt8] = []
    /// The file's lines of the query's new state.
    var state: [UInt8] = []
}

/// The fingerprints of one file's matches, from their line text: what `Fingerprinter.assign`
/// gives a saved-query finding (rule, path, the query's identity prefix and the normalized
/// line, then the occurrence among matches with the same), hashed from bytes without building
/// the key as a string. Files come one per value; matches in reading order.
struct MatchFingerprints {
    private let prefix: StableHash.Accumulator
    /// Per identity (its hash before the occurrence), the matches seen with it so far: a short
    /// list searched in place (most files have a few matches), a dictionary past that.
    private var recent: [(identity: UInt128, count: Int)] = []
    private var occurrences: [UInt128: Int] = [:]
    private static let listed = 32

    init(path: String, identityPrefix: String) {
        var prefix = StableHash.Accumulator()
        prefix.append(SavedQueryRule.id)
        prefix.append(0x1F)
        prefix.append(path)
        prefix.append(0x1F)
        prefix.append(identityPrefix)
        self.prefix = prefix
    }

    mutating func next(lineText: UnsafeRawBufferPointer) -> UInt128 {
        var hash = prefix
        Fingerprinter.appendNormalized(lineText, to: &hash)
        let identity = hash.value
        hash.append(0x1F)
        hash.appendDecimal(occurrence(of: identity))
        return hash.value
    }

    /// How many matches had `identity` before this one.
    private mutating func occurrence(of identity: UInt128) -> Int {
        if occurrences.isEmpty {
            if let index = recent.firstIndex(where: { $0.identity == identity }) {
                recent[index].count += 1
                return recent[index].count - 1
            }
            if recent.count < Self.listed {
                recent.append((identity, 1))
                return 0
            }
            for (listed, count) in recent { occurrences[listed] = count }
        }
        let occurrence = occurrences[identity, default: 0]
        occurrences[identity] = occurrence + 1
        return occurrence
    }
}
