import ShipcheckCore

/// Strings in read-only data that only development builds should contain.
package enum FixtureStringRule: BinaryRule {
    /// Case-insensitive regular expressions matched against printable strings in `.rodata*`.
    static let defaultPatterns = [
        "/Users/[^/\\s]+/", "/home/[^/\\s]+/", "Preview Content", "lorem ipsum", "\\.xctest\\b",
    ]

    package static let description = RuleDescription(
        id: "binary-fixture-string",
        summary: "A developer path, preview-content path, placeholder text or test-bundle name ships in read-only data.",
        rationale: """
            Absolute paths from a developer's machine (/Users/NAME/, /home/NAME/), Preview Content \
            files, lorem-ipsum placeholders and .xctest bundle names in a release binary reveal \
            fixture or preview data compiled into it (and leak local paths). Printable strings of \
            6+ bytes in .rodata sections are matched against `binary.string-patterns` \
            (case-insensitive regular expressions).
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("string /Users/alice/Projects/App/Preview Content/users.json"),
            RuleExample("string Lorem ipsum dolor sit amet"),
            RuleExample("string AppTests.xctest"),
        ],
        nonTriggeringExamples: [
            RuleExample("string /usr/share/zoneinfo/"),
            RuleExample("string Preview unavailable"),
            RuleExample("string /home/"),
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.strings.compactMap { string in
            for pattern in context.stringPatterns {
                guard let match = pattern.firstMatch(in: string.text) else { continue }
                let shown = string.text.count > 120 ? String(string.text.prefix(117)) + "..." : string.text
                return contents.finding(
                    description, context.severity,
                    message: "string \"\(shown)\" in \(string.section) matches '\(pattern.source)' (\(string.text.utf8.count) bytes)",
                    section: string.section, symbol: shown, offset: string.offset,
                    fix: "remove the fixture or preview data from release code (move it to a test or preview target, or `#if DEBUG`)",
                    identity: "\(match) \(string.text)")
            }
            return nil
        }
    }
}
