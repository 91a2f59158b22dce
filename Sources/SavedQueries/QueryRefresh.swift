import ShipcheckCore

/// One query's run turned into findings, compared with its previous run.
public struct QueryRefresh: Sendable {
    public var result: QueryRunResult
    /// One finding per match, fingerprinted, in reading order.
    public var findings: [Finding]
    public var previous: QueryState?
    /// Whether the previous run searched with the same pattern and options (else no diff).
    public var comparable: Bool
    public var new: [Finding]
    public var gone: [QueryState.Entry]

    public init(result: QueryRunResult, previous: QueryState?) {
        self.result = result
        self.previous = previous
        let query = result.query.query
        var findings: [Finding] = []
        for file in result.files {
            for match in file.matches {
                findings.append(Finding(
                    ruleID: SavedQueryRule.id,
                    severity: query.effectiveSeverity,
                    message: Self.message(for: query),
                    location: .source(SourceLocation(path: file.path, line: match.line, column: match.column, endLine: match.line, endColumn: match.endColumn)),
                    snippet: match.lineText,
                    fixHint: query.expectNone ? "remove the match, or narrow the query with 'shipcheck query edit \(query.name)'" : nil,
                    // Path (added by the fingerprinter), query and line text — never the line
                    // number — so an unrelated edit above a match keeps its fingerprint.
                    identity: "\(result.query.scope.rawValue):\(query.name)\u{1F}\(Fingerprinter.normalized(match.lineText))"))
            }
        }
        // Already in reading order: files come sorted and matches in buffer order.
        Fingerprinter.assign(&findings)
        self.findings = findings
        comparable = previous?.signature == query.definitionSignature
        if let previous, comparable {
            let before = Set(previous.matches.map(\.fingerprint))
            let now = Set(findings.map(\.fingerprint))
            new = findings.filter { !before.contains($0.fingerprint) }
            gone = previous.matches.filter { !now.contains($0.fingerprint) }
        } else {
            new = []
            gone = []
        }
    }

    static func message(for query: SavedQuery) -> String {
        let about = query.description.isEmpty ? "\(query.kind == .regex ? "/\(query.pattern)/" : "'\(query.pattern)'")" : query.description
        return query.expectNone ? "saved query '\(query.name)' expects no matches: \(about)" : "saved query '\(query.name)': \(about)"
    }

    /// The state to keep for the next comparison.
    public func state(ranAt: Double) -> QueryState {
        QueryState(
            name: result.query.query.name, signature: result.query.query.definitionSignature, ranAt: ranAt,
            matchCount: findings.count,
            matches: findings.map { finding in
                QueryState.Entry(fingerprint: finding.fingerprint, path: finding.location.path, line: finding.location.line ?? 0, lineText: finding.snippet ?? "")
            })
    }

    /// Whether this query is a gate that failed.
    public var failsGate: Bool { result.query.query.expectNone && !findings.isEmpty }
}
