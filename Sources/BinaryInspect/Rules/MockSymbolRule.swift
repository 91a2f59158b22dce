import ShipcheckCore

/// Types whose names say they are mocks, fakes, stubs, fixtures or preview data.
package enum MockSymbolRule: BinaryRule {
    /// Case-sensitive regular expressions matched against each component of a type's full name.
    /// `(?![a-z])` is the word boundary for camel case: `MockClock`, `ClockMock` and `Mocks`
    /// match, `Stubborn` and `Fakeness` do not.
    static let defaultPatterns = [
        "Mocks?(?![a-z])", "Fakes?(?![a-z])", "Stubs?(?![a-z])", "Fixtures?(?![a-z])",
        "PreviewData(?![a-z])", "SampleData(?![a-z])", "_Previews$",
    ]

    package static let description = RuleDescription(
        id: "binary-mock-symbol",
        summary: "A mock, fake, stub, fixture or preview-data type ships in the binary.",
        rationale: """
            Test doubles and sample data belong in test and preview code. Type names (from the \
            metadata, so stripped binaries too) are split at dots and each component is matched \
            against `binary.symbol-patterns` (regular expressions, case-sensitive; the defaults use \
            `(?![a-z])` as a camel-case word end, so `StubbornRetryPolicy` is not a stub). The \
            finding names the module the type lives in; types nested in a reported type are \
            counted in its finding, not reported again.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("type class App.MockNetworkService"),
            RuleExample("type struct App.UserFixtures"),
            RuleExample("type enum App.Settings.SampleData"),
            RuleExample("type class Files.MockFileSystem\ntype struct Files.MockFileSystem.Storage"),
        ],
        nonTriggeringExamples: [
            RuleExample("type struct App.StubbornRetryPolicy"),
            RuleExample("type struct App.Hammock"),
            RuleExample("type class App.FakenhamStation"),
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        var seen = Set<String>()
        var flagged: [(name: String, place: MetadataPlace, pattern: String)] = []
        let names = contents.metadata.types.map { ($0.name, $0.place) } + contents.metadata.protocols.map { ($0.name, $0.place) }
        for (name, place) in names where seen.insert(name).inserted {
            // #Preview expansion names are mangled; the preview rules report them.
            guard !name.contains("$s") else { continue }
            for component in name.split(separator: ".").dropFirst() {
                guard let pattern = context.symbolPatterns.first(where: { $0.firstMatch(in: String(component)) != nil }) else { continue }
                flagged.append((name, place, pattern.source))
                break
            }
        }
        // One fact, one finding: a type nested in a reported one (`MockFileSystem.Storage`)
        // ships with it and is part of its finding.
        let reported = Set(flagged.map(\.name))
        return flagged.filter { type in !reported.contains { type.name.hasPrefix($0 + ".") } }.map { type in
            let nested = reported.filter { $0.hasPrefix(type.name + ".") }.count
            let module = type.name.prefix { $0 != "." }
            let shortName = type.name.dropFirst(module.count + 1)
            return contents.finding(
                description, context.severity,
                message: "type \(shortName) in module \(module) looks like test or preview data (matches '\(type.pattern)')"
                    + (nested > 0 ? ", with \(nested) nested type\(nested == 1 ? "" : "s")" : "")
                    + "; \(BinaryContents.describeSize(contents.size(ofType: type.name)))",
                section: type.place.section, symbol: type.name, offset: type.place.offset,
                fix: "move it to a test or preview-only target, or wrap it in `#if DEBUG`; if the name is a false positive, adjust binary.symbol-patterns",
                identity: type.name)
        }
    }
}
