import ShipcheckCore

/// Types whose names say they are mocks, fakes, stubs, fixtures or preview data.
package enum MockSymbolRule: BinaryRule, ConfigurableRule {
    /// `rules.binary-mock-symbol.patterns`: case-sensitive regular expressions matched against
    /// each component of a type's full name; set, they replace the built-in ones. `(?![a-z])` is
    /// the word boundary for camel case: `MockClock`, `ClockMock` and `Mocks` match, `Stubborn`
    /// and `Fakeness` do not.
    package typealias Options = PatternListOptions<Patterns>

    package enum Patterns: PatternListSpec {
        package static let builtIn = NamePattern.builtIn(
            [
                "Mocks?(?![a-z])", "Fakes?(?![a-z])", "Stubs?(?![a-z])", "Fixtures?(?![a-z])",
                "PreviewData(?![a-z])", "SampleData(?![a-z])", "_Previews$"
            ], caseInsensitive: caseInsensitive)
        package static let caseInsensitive = false
        package static let formerKey = "binary.symbol-patterns"
    }

    package static let description = RuleDescription(
        id: "binary-mock-symbol",
        summary: "A mock, fake, stub, fixture or preview-data type ships in the binary.",
        rationale: """
            Test doubles and sample data belong in test and preview code. Type names (from the \
            metadata, so stripped binaries too) are split at dots and each component is matched \
            against `rules.binary-mock-symbol.patterns` (regular expressions, case-sensitive; the defaults use \
            `(?![a-z])` as a camel-case word end, so `StubbornRetryPolicy` is not a stub). The \
            finding names the module the type lives in; types nested in a reported type are \
            counted in its finding, not reported again. A matched type that the product's own code \
            uses is reported as a note saying how: the type of a stored property of a non-test type \
            (from the field descriptors, `swift5_fieldmd`), or a conformance to a protocol / a \
            subclass of a class declared in the image that is neither test code nor the seam the \
            type is named after (`MockFileSystem: AsyncFileSystem` is what a double does; \
            `StubBinaryTaskProducer: TaskProducer` is product code named in its domain's words). \
            Enum case payloads (`case mock(MockFileSystem)`) do not count: that is how code \
            switches to a double. Names the Swift toolchain's runtime libraries declare \
            (`Distributed._DistributedActorStub`; apps package those libraries on Android) are \
            the language's API and are not matched.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("↓type class App.MockNetworkService"),
            RuleExample("↓type struct App.UserFixtures"),
            RuleExample("↓type enum App.Settings.SampleData"),
            RuleExample("↓type class Files.MockFileSystem\ntype struct Files.MockFileSystem.Storage"),
            // A note: the product stores it, or plugs it in where its own implementations go.
            RuleExample(
                "↓«note»type struct Build.StubBinary\ntype class Build.Planner\nfield Build.Planner.stub: Build.StubBinary"
            ),
            RuleExample(
                "↓«note»type class Build.StubBinaryProducer\nprotocol Build.TaskProducer\nconformance Build.StubBinaryProducer: Build.TaskProducer"
            ),
            // A warning still: conforming to the seam it is named after, held by an enum case and
            // stored by a test are what a double's uses look like.
            RuleExample(
                """
                ↓type class Files.MockFileSystem
                protocol Files.AsyncFileSystem
                conformance Files.MockFileSystem: Files.AsyncFileSystem
                case Files.OpenFile.Storage.mock: Files.MockFileSystem
                type class App.LoginTests: XCTest.XCTestCase
                field App.LoginTests.files: Files.MockFileSystem
                """)
        ],
        nonTriggeringExamples: [
            RuleExample("type struct App.StubbornRetryPolicy"),
            RuleExample("type struct App.Hammock"),
            RuleExample("type class App.FakenhamStation"),
            // Swift 6.3's libswiftDistributed.so, which an Android app packages beside its own code.
            RuleExample("protocol Distributed._DistributedActorStub")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        let patterns = context.configuration.options(for: Self.self).patterns
        var seen = Set<String>()
        var flagged: [(name: String, place: MetadataPlace, pattern: String)] = []
        let names =
            contents.metadata.types.map { ($0.name, $0.place) }
            + contents.metadata.protocols.map { ($0.name, $0.place) }
        for (name, place) in names where !ToolchainModules.declares(name) && seen.insert(name).inserted {
            guard let pattern = matchedPattern(name, patterns) else { continue }
            flagged.append((name, place, pattern))
        }
        guard !flagged.isEmpty else { return [] }
        // One fact, one finding: a type nested in a reported one (`MockFileSystem.Storage`)
        // ships with it and is part of its finding.
        let all = Set(flagged.map(\.name))
        let reported = flagged.filter { type in !all.contains { type.name.hasPrefix($0 + ".") } }
        let productUses = ProductUses(
            contents.metadata, matched: Set(reported.map(\.name)), isMatched: { matchedPattern($0, patterns) != nil },
            unmatchedName: { unmatchedName($0, patterns) })
        return reported.map { type in
            let nested = all.filter { $0.hasPrefix(type.name + ".") }.count
            let module = type.name.prefix { $0 != "." }
            let shortName = type.name.dropFirst(module.count + 1)
            let uses = productUses.uses[type.name] ?? []
            let usage =
                uses.isEmpty
                ? ""
                : "; but the product uses it: \(uses.prefix(BinaryContents.examplesShown).joined(separator: ", "))"
                    + (uses.count > BinaryContents.examplesShown
                        ? " and \(uses.count - BinaryContents.examplesShown) more" : "")
                    + ", so it is likely product code named in its domain's words"
            var finding = contents.finding(
                description, uses.isEmpty ? context.severity : .note,
                message:
                    "type \(shortName) in module \(module) looks like test or preview data (matches '\(type.pattern)')"
                    + (nested > 0 ? ", with \(nested) nested type\(nested == 1 ? "" : "s")" : "")
                    + usage
                    + "; \(BinaryContents.describeSize(contents.size(ofType: type.name)))",
                section: type.place.section, symbol: type.name, offset: type.place.offset,
                fix: uses.isEmpty
                    ? "move it to a test or preview-only target, or wrap it in `#if DEBUG`; if the name is a false positive, adjust rules.binary-mock-symbol.patterns"
                    : "none needed if it is product code; if it is a test double, take it out of the product types that use it and move it to a test target",
                identity: type.name)
            finding.isDowngraded = !uses.isEmpty
            return finding
        }
    }

    /// The first pattern that matches a component of a full type name (not the module), if any.
    private static func matchedPattern(_ name: String, _ patterns: [NamePattern]) -> String? {
        firstMatch(name, patterns)?.pattern.source
    }

    /// The first matching component without what the pattern matched: `App.MockFileSystem` →
    /// `FileSystem`, `App.GlobalStubBinary` → `GlobalBinary`.
    private static func unmatchedName(_ name: String, _ patterns: [NamePattern]) -> String? {
        guard let match = firstMatch(name, patterns)?.match else { return nil }
        return String(match.base[..<match.startIndex] + match.base[match.endIndex...])
    }

    /// `#Preview` expansion names are mangled: the preview rules report them.
    private static func firstMatch(_ name: String, _ patterns: [NamePattern]) -> (
        pattern: NamePattern, match: Substring
    )? {
        guard !name.contains("$s") else { return nil }
        for component in name.split(separator: ".").dropFirst().map(String.init) {
            for pattern in patterns {
                if let match = pattern.firstMatch(in: component) { return (pattern, match) }
            }
        }
        return nil
    }
}
