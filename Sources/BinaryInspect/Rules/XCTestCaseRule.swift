import ShipcheckCore

/// Subclasses of `XCTestCase` linked into a release artifact.
package enum XCTestCaseRule: BinaryRule {
    /// How a superclass reads when it is XCTest's test case: a Swift class (`XCTest.XCTestCase`,
    /// swift-corelibs-xctest on Linux), the Objective-C class imported into Swift
    /// (`__C.XCTestCase`, a Swift class descriptor's superclass on Apple platforms), or the
    /// Objective-C class itself (`XCTestCase`, bound to `_OBJC_CLASS_$_XCTestCase`).
    static let testCaseNames: Set<String> = ["XCTest.XCTestCase", "__C.XCTestCase", "XCTestCase"]

    package static let description = RuleDescription(
        id: "binary-xctest-case",
        summary: "An XCTestCase subclass ships in the binary.",
        rationale: """
            Test cases belong in test bundles. A class whose superclass is XCTestCase in a release \
            artifact means test code (often a shared test-support target) was linked into the app; \
            App Store review rejects binaries referencing XCTest. Found through the Swift class \
            descriptor's superclass and, on Mach-O, through the Objective-C class list (superclass \
            bound to _OBJC_CLASS_$_XCTestCase), so stripped binaries and Objective-C test classes \
            are covered.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓type class App.LoginTests: XCTest.XCTestCase"),
            RuleExample("↓type class App.LoginTests: __C.XCTestCase"),
            RuleExample("↓objc-class LegacyLoginTests: XCTestCase")
        ],
        nonTriggeringExamples: [
            RuleExample("type class App.LoginViewModel: App.BaseViewModel"),
            RuleExample("objc-class App.AppDelegate: NSObject"),
            RuleExample("type class App.XCTestCaseFormatter: App.Formatter")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        var reported = Set<String>()
        var findings: [Finding] = []
        let swiftClasses = contents.metadata.types.filter { $0.kind == .class }.map {
            ($0.name, $0.superclass, $0.place)
        }
        // A Swift class is in both lists on Apple platforms: reported once, from its Swift metadata.
        let objcClasses = contents.metadata.objcClasses.map { ($0.name, $0.superclass, $0.place) }
        for (name, superclass, place) in swiftClasses + objcClasses {
            guard let superclass, testCaseNames.contains(superclass), reported.insert(name).inserted else { continue }
            findings.append(
                contents.finding(
                    description, context.severity,
                    message:
                        "test class \(name) (subclass of \(superclass == "__C.XCTestCase" ? "XCTestCase" : superclass)) ships in this build; \(BinaryContents.describeSize(contents.size(ofType: name)))",
                    section: place.section, symbol: name, offset: place.offset,
                    fix: "move the class to a test target, and do not link test-support targets into the app",
                    identity: name))
        }
        return findings
    }
}
