import ShipcheckCore

/// A configured name or string pattern: a regular expression through `Matcher`, kept with its
/// source text for messages. Invalid patterns are configuration errors (`InputError`), never crashes.
struct NamePattern: Sendable {
    let source: String
    private let matcher: Matcher

    init(_ source: String, caseInsensitive: Bool, origin: String) throws(InputError) {
        self.source = source
        do {
            matcher = try Matcher(MatchPattern(source, kind: .regex, caseInsensitive: caseInsensitive))
        } catch {
            throw InputError(path: origin, message: "invalid pattern '\(source)': \(error.message)")
        }
    }

    func firstMatch(in text: String) -> Substring? { matcher.firstMatch(in: text) }
}
