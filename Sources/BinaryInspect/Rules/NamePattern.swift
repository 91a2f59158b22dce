import ShipcheckCore

/// A configured name or string pattern: a regular expression through `Matcher`, kept with its
/// source text for messages. Invalid patterns are configuration errors (`InputError`), never crashes.
package struct NamePattern: Sendable {
    let source: String
    private let matcher: Matcher

    init(_ source: String, caseInsensitive: Bool, origin: String, line: Int? = nil) throws(InputError) {
        self.source = source
        do {
            matcher = try Matcher(MatchPattern(source, kind: .regex, caseInsensitive: caseInsensitive))
        } catch {
            throw InputError(path: origin, line: line, message: "invalid pattern '\(source)': \(error.message)")
        }
    }

    func firstMatch(in text: String) -> Substring? { matcher.firstMatch(in: text) }

    /// `sources` compiled; the first that does not compile is an error naming `origin`.
    static func compiled(_ sources: [String], caseInsensitive: Bool, origin: String, line: Int? = nil)
        throws(InputError) -> [NamePattern]
    {
        var patterns: [NamePattern] = []
        for source in sources {
            patterns.append(try NamePattern(source, caseInsensitive: caseInsensitive, origin: origin, line: line))
        }
        return patterns
    }

    /// The patterns listed under `key` in `mapping` (a rule's entry, or a former section).
    static func compiled(_ key: String, in mapping: YAMLMapping, caseInsensitive: Bool) throws(InputError)
        -> [NamePattern]
    {
        try compiled(
            mapping.stringList(key) ?? [], caseInsensitive: caseInsensitive, origin: mapping.file,
            line: mapping.line(of: key))
    }

    /// A rule's built-in patterns, which its examples test: one that does not compile is a bug.
    static func builtIn(_ sources: [String], caseInsensitive: Bool) -> [NamePattern] {
        do {
            return try compiled(sources, caseInsensitive: caseInsensitive, origin: "built-in patterns")
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
