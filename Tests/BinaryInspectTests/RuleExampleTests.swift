import BinaryInspect
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct BinaryRuleExampleTests {
    @Test(arguments: BinaryInspector.ownRules(among: RuleRegistry.rules).descriptions)
    func ruleAgreesWithItsExamples(_ described: RuleDescription) throws {
        // A rule checked in projects too keeps those examples for the project check's tests.
        let rule = described.examples(where: \.isArtifactExample)
        let isBundleRule = RuleRegistry.rules.contains { BinaryInspector.isBundleRule($0) && $0.id == rule.id }
        // Every example is checked with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            if isBundleRule {
                let (bundle, places) = try BundleContents.example(text)
                let findings = RuleOrders.findings(of: RuleRegistry.rules, differences: &differences) { rules in
                    BinaryInspector(configuration: Configuration(), rules: rules).check(bundle)
                }
                return RuleExampleVerifier.Scanned(findings, places: places)
            }
            let (contents, places) = try BinaryContents.example(text)
            let findings = RuleOrders.findings(of: RuleRegistry.rules, differences: &differences) { rules in
                BinaryInspector(configuration: Configuration(), rules: rules).check(contents)
            }
            return RuleExampleVerifier.Scanned(findings, places: places)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// A build path into Preview Content is binary-fixture-string's finding and not
    /// binary-build-paths', whichever of the two runs first; with fixture-string off (or its
    /// patterns not matching) it is a build path like any other.
    @Test func aPathBothRulesWouldReportIsFixtureStringsInEveryOrder() throws {
        let preview = "/Users/alice/Projects/App/Preview Content/users.json"
        let store = "/Users/alice/Projects/App/Sources/App/Store.swift"
        let contents = try BinaryContents(example: "string \(preview)\nstring \(store)")
        var fixtureStringOff = Configuration()
        fixtureStringOff.ruleSeverities["binary-fixture-string"] = .some(nil)
        var otherPatterns = Configuration()
        otherPatterns.setOptions(try FixtureStringRule.Options(patterns: ["lorem"]), for: FixtureStringRule.self)
        for (configuration, expected) in [
            (Configuration(), ["binary-build-paths: \(store)", "binary-fixture-string: \(preview)"]),
            (fixtureStringOff, ["binary-build-paths: \(preview)\n\(store)"]),
            (otherPatterns, ["binary-build-paths: \(preview)\n\(store)"])
        ] {
            for (name, rules) in RuleOrders.variants(of: RuleRegistry.rules) {
                let findings = BinaryInspector(configuration: configuration, rules: rules).check(contents)
                let strings = findings.map { "\($0.ruleID): \($0.snippet ?? "")" }.sorted()
                #expect(strings == expected, "rules \(name)")
            }
        }
    }

    @Test func ruleIDsAreUniqueAndPrefixed() {
        let ids = BinaryInspector.ownRules(among: RuleRegistry.rules).descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("binary-") || $0.hasPrefix("bundle-") || $0.hasPrefix("preflight-") })
    }

    @Test func disabledRuleReportsNothing() throws {
        var configuration = Configuration()
        configuration.ruleSeverities["binary-test-library-dependency"] = .some(nil)
        let findings = try BinaryInspector(configuration: configuration, rules: RuleRegistry.rules).check(
            BinaryContents(example: "needed libXCTest.so"))
        #expect(findings.isEmpty)
    }

    @Test func customSymbolPatternsReplaceTheDefaults() throws {
        var configuration = Configuration()
        configuration.setOptions(try MockSymbolRule.Options(patterns: ["^Dummy"]), for: MockSymbolRule.self)
        let findings = try BinaryInspector(configuration: configuration, rules: RuleRegistry.rules)
            .check(BinaryContents(example: "type class App.DummyClock\ntype class App.MockClock"))
        #expect(findings.map(\.snippet) == ["App.DummyClock"])
    }

    @Test func invalidPatternIsAConfigurationErrorNamingThePatternAndLine() {
        for text in [
            "rules:\n  binary-fixture-string:\n    patterns: [\"(unclosed\"]\n",
            "binary:\n  string-patterns: [\"(unclosed\"]\n"
        ] {
            #expect {
                try ConfigurationLoader.parse(
                    text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
            } throws: { error in
                let error = error as? InputError
                return error?.path == ".shipcheck.yml" && error?.line == 3 - (text.hasPrefix("binary") ? 1 : 0)
                    && error?.message.contains("(unclosed") == true
            }
        }
    }

    /// The rule's entry and the key the option had before give the rule the same patterns.
    @Test(arguments: [
        "rules:\n  binary-mock-symbol:\n    patterns: [\"^Dummy\"]\n",
        "binary:\n  symbol-patterns: [\"^Dummy\"]\n"
    ])
    func patternsFromTheConfigurationFile(_ text: String) throws {
        let configuration = try ConfigurationLoader.parse(
            text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
        let findings = try BinaryInspector(configuration: configuration, rules: RuleRegistry.rules)
            .check(BinaryContents(example: "type class App.DummyClock\ntype class App.MockClock"))
        #expect(findings.map(\.snippet) == ["App.DummyClock"])
        #expect(configuration.deprecations.count == (text.hasPrefix("binary") ? 1 : 0))
    }

    @Test func previewMacroPositionIsDecodedFromTheMangledName() throws {
        let name =
            "App.$s3App0014Appswift_IwJBbfMX2_0_33_E43A8CCEA282046670AC3C840611B7E8Ll7PreviewfMf_15PreviewRegistryfMu_"
        let findings = try BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)
            .check(BinaryContents(example: "conformance \(name): DeveloperToolsSupport.PreviewRegistry"))
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("#Preview at App.swift:3:1") == true)
    }
}

/// The examples' text form: a line it does not read is an error, so a mistyped example cannot
/// pass by testing nothing.
@Suite struct BinaryExampleFormTests {
    @Test(arguments: [
        "neede libXCTest.so",  // a mistyped keyword
        "type klass App.MockClock",  // an unknown type kind
        "conformance App.Preview",  // no protocol
        "field App.Planner stub",  // no type
        "symbol $s3App4MockC 12 extra",  // a third field
        "section .debug_info big",  // a size that is no number
        "needed",  // a keyword without a value
        "test-record XCTestCase",  // a record kind is a four-character code
        "build-id 0xZZ"  // a build-id is hex
    ])
    func anUnreadableLineIsAnError(_ line: String) {
        // The error names the line as the example shows it, blank lines counted.
        #expect {
            try BinaryContents(example: "type class App.Clock\n\n\(line)")
        } throws: { error in
            (error as? InputError)?.line == 3
        }
    }

    /// Each line's record carries the place a finding about it names, so a marker is checked
    /// against the line that produced the finding.
    @Test func eachLineDeclaresThePlaceOfItsFindings() throws {
        let (contents, places) = try BinaryContents.example(
            "type class App.MockClock\n\nneeded libXCTest.so\nstring /Users/alice/App\nbuild-id 00ff")
        let findings = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).check(contents)
        let lines = findings.map { "\($0.ruleID) \(places.lines(of: $0.location))" }.sorted()
        #expect(
            lines == [
                "binary-build-facts [5]", "binary-build-paths [4]", "binary-mock-symbol [1]",
                "binary-test-library-dependency [3]"
            ])
    }

    @Test func everyKeywordOfTheFormIsRead() throws {
        let contents = try BinaryContents(
            example: """
                conformance App.Preview: DeveloperToolsSupport.PreviewRegistry
                type class App.MockClock: App.Clock
                protocol App.Clocking
                field App.Planner.clock: App.MockClock
                case App.Source.mock: App.MockClock
                objc-class MockView: UIView
                string /Users/alice/App
                needed libXCTest.so
                autolink XCTest
                dylib /usr/lib/libSystem.B.dylib
                weak-dylib @rpath/XCTest.framework/XCTest
                linker-option -lswiftXCTest
                comment clang version 17
                build-id 0011
                section .debug_info 4096
                fact built with assertions
                symbol $s3App9MockClockC 12
                test-record test
                """)
        #expect(
            contents.metadata.conformances.count == 1 && contents.metadata.types.count == 1
                && contents.metadata.protocols.count == 1)
        #expect(
            contents.metadata.fields.count == 2 && contents.metadata.objcClasses.count == 1
                && contents.metadata.tests.count == 1)
        #expect(contents.strings.map(\.text) == ["/Users/alice/App"])
        #expect(contents.libraries.count == 5)
        #expect(contents.symbols.map(\.size) == [12] && contents.hasSymbolTable)
    }
}
