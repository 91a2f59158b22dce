import ShipcheckCore

/// Absolute paths of the machine that built the binary, from `#file` / `#filePath`, assertion
/// messages and C `__FILE__`: one fact about the build, so one note per binary (slice,
/// archive member), with the count, the common prefix and three examples.
package enum BuildPathsRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-build-paths",
        summary: "Absolute paths of the build machine (/Users/NAME/…, /home/NAME/…) are embedded in the binary.",
        rationale: """
            `#file` and `#filePath` (in `fatalError`, `precondition`, `assert`, logging), C's \
            `__FILE__` and assertion strings keep the absolute source path of the machine that \
            built the binary: its user name and folder layout ship to every user, and the binary \
            differs between machines. It is one fact about how the binary was built, so it is one \
            note per binary (per slice or archive member) with the count, the common prefix and \
            three examples; the full list is in JSON and SARIF (related locations) and behind \
            `--verbose`. Remove them with `-file-prefix-map OLD=NEW` (swiftc; \
            `-ffile-prefix-map` for clang) and `-debug-prefix-map` for debug info, and by using \
            `#fileID` instead of `#file` / `#filePath` in Swift code. A path that matches a \
            `rules.binary-fixture-string.patterns` pattern (Preview Content) is reported by \
            binary-fixture-string instead.
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("↓string /home/build-user/swift/lib/Demangling/Demangler.cpp"),
            RuleExample("↓string Fatal error at /Users/alice/Projects/App/Sources/App/Store.swift:42")
        ],
        nonTriggeringExamples: [
            RuleExample("string /usr/share/zoneinfo/"),
            RuleExample("string /home/"),
            RuleExample("string App/Store.swift"),
            RuleExample("string /Users/alice/Projects/App/Preview Content/users.json")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        // A path binary-fixture-string reports (Preview Content) is its finding, not this one's.
        var paths: [(string: BinaryContents.FoundString, path: Substring)] = []
        for string in contents.strings {
            guard let path = buildPath(in: string.text),
                !FixtureStringRule.reports(string.text, under: context.configuration)
            else { continue }
            paths.append((string, path))
        }
        guard let first = paths.first else { return [] }
        let prefix = commonFolder(paths.map(\.path))
        let message =
            paths.count == 1
            ? "absolute build path \(BinaryContents.examples([first.path])) in \(first.string.section)"
            : "\(paths.count) absolute build paths in read-only data, all under \(prefix), e.g. \(BinaryContents.examples(paths.map(\.path)))"
        return [
            contents.finding(
                description, context.severity, message: message, strings: paths.map(\.string),
                fix:
                    "build with -file-prefix-map \(prefix)=. (clang: -ffile-prefix-map) and -debug-prefix-map \(prefix)=., and use #fileID rather than #file / #filePath",
                identity: "build paths")
        ]
    }

    /// The absolute path under `/Users/NAME/` or `/home/NAME/` in `text`, to its end (the next
    /// whitespace, quote or `:` that starts a line number).
    static func buildPath(in text: String) -> Substring? {
        for root in ["/Users/", "/home/"] {
            var from = text.startIndex
            while let found = text.range(of: root, range: from..<text.endIndex) {
                from = found.upperBound
                if found.lowerBound > text.startIndex, let before = text[text.index(before: found.lowerBound)...].first,
                    before.isLetter || before.isNumber || before == "/" || before == "."
                {
                    continue
                }
                let name = text[found.upperBound...].prefix { !$0.isWhitespace && $0 != "/" }
                guard !name.isEmpty, name.endIndex < text.endIndex, text[name.endIndex] == "/" else { continue }
                let end =
                    text[found.lowerBound...].firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == ":" }
                    ?? text.endIndex
                return text[found.lowerBound..<end]
            }
        }
        return nil
    }

    /// The deepest folder holding every path (`/home/build-user/`).
    static func commonFolder(_ paths: [Substring]) -> String {
        guard var common = paths.first.map(Array.init) else { return "/" }
        for path in paths.dropFirst() {
            let characters = Array(path)
            var length = 0
            while length < min(common.count, characters.count), common[length] == characters[length] { length += 1 }
            common.removeSubrange(length...)
        }
        if let slash = common.lastIndex(of: "/") { common.removeSubrange((slash + 1)...) }
        return String(common)
    }
}
