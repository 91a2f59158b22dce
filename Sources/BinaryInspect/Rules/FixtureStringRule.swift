import ShipcheckCore

/// Strings in read-only data that only development builds should contain: one finding per
/// pattern and binary, however many strings match it.
package enum FixtureStringRule: BinaryRule, ConfigurableRule {
    /// `rules.binary-fixture-string.patterns`: case-insensitive regular expressions matched
    /// against printable strings in `.rodata*`; set, they replace the built-in ones. Build paths
    /// (`/Users/NAME/…`, `/home/NAME/…`) are `BuildPathsRule`'s. `Preview Content/` is a path
    /// into the folder, not a sentence about it (docc says "The preview content path").
    package typealias Options = PatternListOptions<Patterns>

    package enum Patterns: PatternListSpec {
        package static let builtIn = NamePattern.builtIn(
            ["Preview Content/", "lorem ipsum", "\\.xctest\\b"], caseInsensitive: caseInsensitive)
        package static let caseInsensitive = true
        package static let formerKey = "binary.string-patterns"
    }

    package static let description = RuleDescription(
        id: "binary-fixture-string",
        summary: "A preview-content path, placeholder text or test-bundle name ships in read-only data.",
        rationale: """
            Preview Content files, lorem-ipsum placeholders and .xctest bundle names in a release \
            binary reveal fixture or preview data compiled into it. Printable strings of 6+ bytes \
            in read-only data (ELF .rodata*, Mach-O C-string sections) are matched against \
            `rules.binary-fixture-string.patterns` (case-insensitive regular expressions). One finding per \
            pattern and binary (slice, archive member) gives the count and three examples; the \
            full list is in JSON and SARIF (related locations) and behind `--verbose`.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("↓string /Users/alice/Projects/App/Preview Content/users.json"),
            RuleExample("↓string Lorem ipsum dolor sit amet"),
            RuleExample("↓string AppTests.xctest")
        ],
        nonTriggeringExamples: [
            RuleExample("string /usr/share/zoneinfo/"),
            RuleExample("string Preview unavailable"),
            RuleExample("string The preview content path '"),
            RuleExample("string /home/build/Sources/App/main.swift")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        let patterns = context.configuration.options(for: Self.self).patterns
        var matches: [Int: [BinaryContents.FoundString]] = [:]
        for string in contents.strings {
            if let index = firstMatch(string.text, patterns) { matches[index, default: []].append(string) }
        }
        return matches.keys.sorted().map { index in
            let pattern = patterns[index].source
            let strings = matches[index]!
            let message =
                strings.count == 1
                ? "string \(BinaryContents.examples([strings[0].text])) in \(strings[0].section) matches '\(pattern)' (\(strings[0].text.utf8.count) bytes)"
                : "\(strings.count) strings in read-only data match '\(pattern)', e.g. \(BinaryContents.examples(strings.map(\.text)))"
            return contents.finding(
                description, context.severity, message: message, strings: strings,
                fix:
                    "remove the fixture or preview data from release code (move it to a test or preview target, or `#if DEBUG`)",
                identity: "pattern \(pattern)")
        }
    }

    /// Whether the rule, on under `configuration`, reports `text`: a string another rule would
    /// report too (a build path into Preview Content) is this rule's finding, and that rule asks
    /// here rather than looking at what ran before it, so neither depends on the rules' order.
    static func reports(_ text: String, under configuration: Configuration) -> Bool {
        configuration.isEnabled(description) && firstMatch(text, configuration.options(for: Self.self).patterns) != nil
    }

    private static func firstMatch(_ text: String, _ patterns: [NamePattern]) -> Int? {
        patterns.firstIndex { $0.firstMatch(in: text) != nil }
    }
}
