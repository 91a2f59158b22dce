import ShipcheckCore

/// A configured name or string pattern: a Swift `Regex`, kept with its source text for messages.
/// Invalid patterns are configuration errors (`InputError`), never crashes.
struct NamePattern: @unchecked Sendable {
    let source: String
    private let regex: Regex<AnyRegexOutput>

    init(_ source: String, caseInsensitive: Bool, origin: String) throws(InputError) {
        self.source = source
        do {
            let compiled = try Regex(source)
            regex = caseInsensitive ? compiled.ignoresCase() : compiled
        } catch {
            throw InputError(path: origin, message: "invalid pattern '\(source)': \(error)")
        }
    }

    func firstMatch(in text: String) -> Substring? {
        guard let match = try? regex.firstMatch(in: text) else { return nil }
        return text[match.range]
    }
}
