import ShipcheckCore

/// Subclasses of `XCTest.XCTestCase` linked into a release artifact.
package enum XCTestCaseRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-xctest-case",
        summary: "An XCTestCase subclass ships in the binary.",
        rationale: """
            Test cases belong in test bundles. A class whose superclass is XCTest.XCTestCase in a \
            release artifact means test code (often a shared test-support target) was linked into \
            the app; App Store review rejects binaries referencing XCTest. Found through the class \
            descriptor's superclass in the metadata, so stripped binaries are covered.
            """,
        defaultSeverity: .error,
        triggeringExamples: [RuleExample("type class App.LoginTests: XCTest.XCTestCase")],
        nonTriggeringExamples: [RuleExample("type class App.LoginViewModel: App.BaseViewModel")])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.metadata.types.compactMap { type in
            guard type.kind == .class, type.superclass == "XCTest.XCTestCase" else { return nil }
            return contents.finding(
                description, context.severity,
                message: "test class \(type.name) (subclass of XCTest.XCTestCase) ships in this build; \(BinaryContents.describeSize(contents.size(ofType: type.name)))",
                section: type.place.section, symbol: type.name, offset: type.place.offset,
                fix: "move the class to a test target, and do not link test-support targets into the app",
                identity: type.name)
        }
    }
}
