import ShipcheckCore
import ShipcheckTestSupport
import Testing

/// The verifier is what makes a rule's examples its tests: each way an example can disagree with
/// what the rule reports must be a failure.
@Suite struct RuleExampleVerifierTests {
    static func rule(_ triggering: String) -> RuleDescription {
        RuleDescription(
            id: "example-rule", summary: "s", rationale: "r", defaultSeverity: .warning,
            triggeringExamples: [RuleExample(triggering)], nonTriggeringExamples: [RuleExample("clean")])
    }

    static func finding(line: Int, column: Int, _ severity: Severity = .warning) -> Finding {
        Finding(
            ruleID: "example-rule", severity: severity, message: "m",
            location: .source(SourceLocation(path: "Example.swift", line: line, column: column)))
    }

    /// Source-like examples: the findings `reported` for the triggering example, none for the other.
    static func failures(_ triggering: String, reported: [Finding]) -> [String] {
        RuleExampleVerifier.verify(rule(triggering)) { _, text in text == "clean" ? [] : reported }
    }

    @Test func findingsAtEachMarkerWithItsSeverityPass() {
        let text = "let a = 1\n  ↓bad()\n↓«note»worse()"
        #expect(
            Self.failures(text, reported: [Self.finding(line: 3, column: 1, .note), Self.finding(line: 2, column: 3)])
                .isEmpty)
    }

    @Test func aTriggeringExampleWithoutMarkersFails() {
        let failures = Self.failures("bad()", reported: [Self.finding(line: 1, column: 1)])
        #expect(failures.count == 1 && failures[0].contains("without a ↓ marker"))
    }

    @Test(arguments: [
        [finding(line: 1, column: 1, .note)],  // the default severity is warning
        [finding(line: 1, column: 2)],  // another column
        [finding(line: 1, column: 1), finding(line: 1, column: 1)],  // one finding too many
        []  // none
    ])
    func aFindingThatDoesNotMatchItsMarkerFails(_ reported: [Finding]) {
        #expect(Self.failures("↓bad()", reported: reported).count == 1)
    }

    @Test func aMarkerNamingNoSeverityFails() {
        #expect(Self.failures("↓«fatal»bad()", reported: [Self.finding(line: 1, column: 1)]).count == 1)
    }

    @Test func aRuleWithoutExamplesBothWaysFails() {
        var rule = Self.rule("↓bad()")
        rule.nonTriggeringExamples = []
        #expect(RuleExampleVerifier.verify(rule) { _, _ in [Self.finding(line: 1, column: 1)] }.count == 1)
    }

    /// Line-oriented examples: a finding belongs to the marked line whose declared place it has.
    @Test func artifactFindingsAreMatchedToTheLineDeclaringTheirPath() {
        let text = "file Payload/App.app/App\n↓file Payload/App.app/Mocks/feed.json"
        let places = ExamplePlaces(
            root: "Example.ipa",
            places: [
                ExamplePlace(line: 1, path: "Payload/App.app/App"),
                ExamplePlace(line: 2, path: "Payload/App.app/Mocks/feed.json")
            ])
        func failures(at path: String) -> [String] {
            RuleExampleVerifier.verifyWithPlaces(Self.rule(text)) { _, text in
                let finding = Finding(
                    ruleID: "example-rule", severity: .warning, message: "m",
                    location: .binary(BinaryLocation(path: path)))
                return RuleExampleVerifier.Scanned(text == "clean" ? [] : [finding], places: places)
            }
        }
        #expect(failures(at: "Example.ipa/Payload/App.app/Mocks/feed.json").isEmpty)
        #expect(failures(at: "Example.ipa/Payload/App.app/Mocks").isEmpty, "a folder holding the line's file")
        #expect(failures(at: "Example.ipa/Payload/App.app/App").count == 1, "the unmarked line's file")
        #expect(failures(at: "Example.ipa").count == 1, "the artifact itself: no line declares it")
    }

    @Test func binaryPlacesCompareTheirSectionSymbolAndOffset() {
        let places = ExamplePlaces(
            root: "Example",
            places: [
                ExamplePlace(line: 1, section: "example", offset: 1),
                ExamplePlace(line: 2, symbol: "libXCTest.so")
            ])
        #expect(
            places.lines(of: .binary(BinaryLocation(path: "Example", section: "example", symbol: "T", offset: 1))) == [
                1
            ])
        #expect(
            places.lines(of: .binary(BinaryLocation(path: "Example", section: ".dynamic", symbol: "libXCTest.so"))) == [
                2
            ])
        #expect(places.lines(of: .binary(BinaryLocation(path: "Example", section: "example", offset: 2))).isEmpty)
        #expect(places.lines(of: .file(path: "Example")).isEmpty)
    }
}
