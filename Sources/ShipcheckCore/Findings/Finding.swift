/// One problem found by a check. Every reporter renders the same value.
package struct Finding: Codable, Sendable, Hashable {
    package var ruleID: String
    package var severity: Severity
    package var message: String
    package var location: Location
    /// The source line(s) or symbol the finding is about, as the user would recognise them.
    package var snippet: String?
    /// What to do about it.
    package var fixHint: String?
    /// What identifies this finding independently of where it sits in the file: for example
    /// the preview's name and enclosing type, or a conflict block's labels. Rules set it;
    /// when it is nil the trimmed snippet stands in. Never include line numbers here.
    package var identity: String?
    /// Stable across unrelated edits: derived from the rule, the path, the identity and the
    /// occurrence among equal identities. Assigned by `Fingerprinter.assign(_:)`.
    package var fingerprint: String
    /// Every occurrence of a finding that stands for many of one kind (one fact, one finding:
    /// a binary's build paths), in full: JSON and SARIF (`relatedLocations`) list them, the
    /// text report with `--verbose`.
    package var related: [RelatedLocation]?
    /// What the one-line text layout (`path:line:col: severity: … [rule]`) says instead of
    /// `message`, when that differs: a saved query's match shows the matched text there, as a
    /// search result does, and its description in headings, JSON and SARIF.
    package var lineMessage: String?
    /// The rule lowered this finding to a note on evidence that it is not what the rule looks
    /// for (a mock-named type the product's own code uses): a severity configured for the rule
    /// replaces the rule's usual severity, not this one; turning the rule off still drops it.
    package var isDowngraded = false

    package init(
        ruleID: String,
        severity: Severity,
        message: String,
        location: Location,
        snippet: String? = nil,
        fixHint: String? = nil,
        identity: String? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.snippet = snippet
        self.fixHint = fixHint
        self.identity = identity
        self.fingerprint = ""
    }
}

/// One occurrence behind a grouped finding: where it is and what is there.
package struct RelatedLocation: Codable, Sendable, Hashable {
    package var location: Location
    package var message: String

    package init(location: Location, message: String) {
        self.location = location
        self.message = message
    }
}

extension Finding {
    /// Orders findings as a reader wants them: by path, then line, column, rule.
    package static func readingOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.location.path != rhs.location.path { return lhs.location.path < rhs.location.path }
        let lhsLine = lhs.location.line ?? 0, rhsLine = rhs.location.line ?? 0
        if lhsLine != rhsLine { return lhsLine < rhsLine }
        if case .source(let l) = lhs.location, case .source(let r) = rhs.location, l.column != r.column {
            return l.column < r.column
        }
        if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
        return lhs.message < rhs.message
    }
}
