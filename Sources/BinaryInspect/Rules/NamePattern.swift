import ScanEngine
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

/// A rule whose one option is a list of patterns (`rules.<id>.patterns`), replacing its built-in
/// list when set: what the rule says about it.
package protocol PatternListSpec: Sendable {
    /// The built-in patterns, compiled once (`NamePattern.builtIn`).
    static var builtIn: [NamePattern] { get }
    static var caseInsensitive: Bool { get }
    /// The option's key before rules owned their options (`section.key`).
    static var formerKey: String { get }
}

/// The options of a pattern-list rule: `patterns`, regular expressions compiled when the
/// configuration loads (a bad one is an error with its file and line).
package struct PatternListOptions<Spec: PatternListSpec>: RuleOptions {
    package static var keys: [String] { ["patterns"] }
    package static var formerKeys: [String: String] { ["patterns": Spec.formerKey] }

    var patterns = Spec.builtIn

    package init() {}

    package init(patterns: [String]) throws(InputError) {
        self.patterns = try NamePattern.compiled(patterns, caseInsensitive: Spec.caseInsensitive, origin: "options")
    }

    package mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
        patterns = try NamePattern.compiled(key, in: mapping, caseInsensitive: Spec.caseInsensitive)
    }
}
