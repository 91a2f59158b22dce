import ShipcheckCore

/// One bookmarked search: what to look for, where, and whether a match should fail a gate.
package struct SavedQuery: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case literal
        /// A regular expression (`Matcher`'s syntax, as Xcode's Find navigator takes it); matched line by line.
        case regex
    }

    /// Which store a query lives in.
    package enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        case repository = "repo"
        case personal
    }

    /// The unique handle: letters, digits, `.`, `_`, `-`, starting with a letter or digit.
    package var name: String
    package var description: String
    package var pattern: String
    package var kind: Kind
    package var caseSensitive: Bool
    package var wholeWord: Bool
    /// Paths to search (empty: every scanned file); `!pattern` re-excludes.
    package var include: [String]
    /// Paths never searched by this query; `!pattern` re-includes.
    package var exclude: [String]
    /// Severity of its findings; nil: `error` for gates, `note` for plain bookmarks.
    package var severity: Severity?
    /// `expect: none`: any match is a failure (exit 1, and a gate in `audit`).
    package var expectNone: Bool

    package init(
        name: String, description: String = "", pattern: String, kind: Kind = .literal,
        caseSensitive: Bool = true, wholeWord: Bool = false, include: [String] = [], exclude: [String] = [],
        severity: Severity? = nil, expectNone: Bool = false
    ) {
        self.name = name
        self.description = description
        self.pattern = pattern
        self.kind = kind
        self.caseSensitive = caseSensitive
        self.wholeWord = wholeWord
        self.include = include
        self.exclude = exclude
        self.severity = severity
        self.expectNone = expectNone
    }

    /// The severity its findings carry.
    package var effectiveSeverity: Severity { severity ?? (expectNone ? .error : .note) }

    /// Why `name` cannot be a handle, or nil when it can.
    package static func problem(withName name: String) -> String? {
        guard let first = name.utf8.first else { return "a query name cannot be empty" }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        let startsWell = first != UInt8(ascii: "-") && first != UInt8(ascii: "_") && first != UInt8(ascii: ".")
        guard allowed, startsWell, name.utf8.count <= 100 else {
            return
                "invalid query name '\(name)': use letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 100)"
        }
        return nil
    }

    /// Why the pattern cannot be searched for, or nil. Regular expressions are compiled here
    /// so a typo is reported when the query is saved, not when a CI job runs it.
    package func patternProblem() -> String? {
        if pattern.isEmpty { return "the pattern of query '\(name)' is empty" }
        if pattern.contains("\n") || pattern.contains("\r") {
            return "the pattern of query '\(name)' spans lines; queries match within one line"
        }
        if kind == .regex {
            do { _ = try QuerySearcher(self) } catch { return error.message }
        }
        return nil
    }

    /// A fingerprint of everything that decides what the query matches: when it changes,
    /// a comparison with the previous run would be meaningless.
    package var definitionSignature: String {
        StableHash.hex128(
            [
                pattern, kind.rawValue, "\(caseSensitive)", "\(wholeWord)",
                include.joined(separator: "\u{1E}"), exclude.joined(separator: "\u{1E}")
            ].joined(separator: "\u{1F}"))
    }
}
