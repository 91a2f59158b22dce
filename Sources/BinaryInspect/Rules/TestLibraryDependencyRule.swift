import ShipcheckCore

/// `libXCTest.so` / `libTesting.so` in DT_NEEDED, `-lXCTest` / `-lTesting` autolink entries.
package enum TestLibraryDependencyRule: BinaryRule {
    static let testLibraries = ["XCTest", "Testing"]

    package static let description = RuleDescription(
        id: "binary-test-library-dependency",
        summary: "The binary depends on a test framework (XCTest or swift-testing).",
        rationale: """
            A release artifact that loads libXCTest.so or libTesting.so (DT_NEEDED), or an object \
            that asks the linker for them (-lXCTest / -lTesting in .swift1_autolink_entries), \
            ships or links test code and drags the test frameworks into the product.
            """,
        defaultSeverity: .error,
        triggeringExamples: [RuleExample("needed libXCTest.so"), RuleExample("autolink -lTesting")],
        nonTriggeringExamples: [RuleExample("needed libswiftCore.so\nautolink -lswiftCore"), RuleExample("needed libTestingHelpers.so")])

    static func isTestLibrary(soname: String) -> Bool {
        testLibraries.contains { soname == "lib\($0).so" || soname.hasPrefix("lib\($0).so.") }
    }

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        var findings: [Finding] = []
        for library in contents.neededLibraries where isTestLibrary(soname: library) {
            findings.append(contents.finding(
                description, context.severity,
                message: "depends on the test framework \(library) (DT_NEEDED): test code is linked into this build",
                section: ".dynamic", symbol: library, offset: nil,
                fix: "remove XCTest / Testing imports from app and library targets; link test-support code only into test targets",
                identity: "needed \(library)"))
        }
        for entry in contents.autolinkEntries where testLibraries.contains(where: { entry == "-l\($0)" }) {
            findings.append(contents.finding(
                description, context.severity,
                message: "autolinks the test framework (\(entry)): this object imports XCTest or Testing",
                section: ".swift1_autolink_entries", symbol: entry, offset: nil,
                fix: "move the code that imports XCTest / Testing into a test target",
                identity: "autolink \(entry)"))
        }
        return findings
    }
}
