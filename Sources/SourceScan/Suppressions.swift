import Foundation
import ShipcheckCore

/// `// shipcheck:ignore RULE[, RULE…] -- reason` comments in one file.
///
/// A suppression applies to a finding when it sits on the line directly above the finding, or
/// anywhere in the comment block directly above the declaration (above its doc comment and
/// attributes, or among them). The reason after `--`
/// is required: a suppression without one does not suppress, and the finding says so, so
/// every silenced finding in a release gate carries its justification in review.
struct Suppressions {
    static let marker = "shipcheck:ignore"
    /// Appended to the message of a finding whose suppression comment lacks a reason.
    static let missingReasonNote = " (the shipcheck:ignore comment above has no '-- reason', so it does not suppress)"

    struct Entry {
        var rules: Set<String>
        var hasReason: Bool
    }

    /// 1-based line of the comment → what it suppresses.
    private(set) var entries: [Int: Entry] = [:]

    init(bytes: [UInt8], lines: LineTable) {
        guard ByteSearch.contains(Self.marker, in: bytes) else { return }
        let needle = Array(Self.marker.utf8)
        bytes.withUnsafeBytes { hay in
            needle.withUnsafeBytes { marker in
                var from = 0
                while let hit = ByteSearch.find(marker, in: hay, from: from) {
                    from = hit + marker.count
                    let line = lines.position(of: hit).line
                    let range = lines.range(ofLine: line, in: hay)
                    let text = String(lossyUTF8: hay[range])
                    if let entry = Self.parse(text) { entries[line] = entry }
                }
            }
        }
    }

    /// Parses a whole line holding only a `//` comment with the marker.
    static func parse(_ line: String) -> Entry? {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.drop { $0 == "/" }.drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix(marker) else { return nil }
        rest = rest.dropFirst(marker.count)
        var reason: Substring = ""
        if let separator = rest.range(of: "--") {
            reason = rest[separator.upperBound...]
            rest = rest[..<separator.lowerBound]
        }
        let rules = Set(rest.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init))
        guard !rules.isEmpty else { return nil }
        return Entry(rules: rules, hasReason: !reason.trimmingCharacters(in: .whitespaces).isEmpty)
    }

    enum Decision { case report, suppressed, missingReason }

    /// Whether a finding of `rule` at `line`, for a declaration whose comments and code start
    /// on `leadingLines`, is silenced.
    func decision(rule: String, line: Int, leadingLines: ClosedRange<Int>) -> Decision {
        guard !entries.isEmpty else { return .report }
        for candidate in [line - 1] + Array(leadingLines.lowerBound - 1 ..< leadingLines.upperBound) {
            guard let entry = entries[candidate], entry.rules.contains(rule) else { continue }
            return entry.hasReason ? .suppressed : .missingReason
        }
        return .report
    }
}
