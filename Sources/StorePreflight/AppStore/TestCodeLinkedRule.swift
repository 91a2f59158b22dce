import BinaryInspect
import ScanEngine
import ShipcheckCore

/// Test frameworks and debugging tools loaded by an image, and XCTest / Swift Testing symbols
/// it imports: one finding per image.
package enum TestCodeLinkedRule: BundleRule, ConfigurableRule {
    /// `rules.preflight-test-code-linked.debugging-tools`: module names of debugging tools added
    /// to the built-in list.
    package struct Options: RuleOptions {
        package static let keys = ["debugging-tools"]
        package static let formerKeys = ["debugging-tools": "preflight.debugging-tools"]

        var debuggingTools: [String] = []

        package init() {}

        package mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
            debuggingTools = try mapping.stringList(key) ?? []
        }
    }

    package static let description = RuleDescription(
        id: "preflight-test-code-linked",
        summary:
            "An image links a test framework (XCTest, Swift Testing, XCUIAutomation) or a debugging tool, or imports XCTest symbols.",
        rationale: """
            App Store Connect refuses builds whose images reference XCTest (ITMS-90338: "The app \
            references non-public symbols in Frameworks/Nimble.framework/Nimble: \
            __swift_FORCE_LOAD_$_XCTestSwiftSupport"), and on a device without Xcode a loaded \
            test framework is missing, so the app crashes at launch. Each image's load commands \
            (LC_LOAD_DYLIB, weak, re-export, lazy, upward) are matched against Apple's test \
            frameworks and a list of debugging and test tools (FLEX, Reveal, netfox, \
            SnapshotTesting, Nimble, KIF…, extendable with rules.preflight-test-code-linked.debugging-tools), and its \
            imported symbols against XCTest's and Swift Testing's (a helper library that \
            re-exports XCTest, a static library that references it). Debugging tools are not \
            reported for ad-hoc or development distribution (QA builds carry them on purpose); \
            test frameworks always are. Binaries given on their own are checked too.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90338: Non-public API usage (XCTest symbols), and a crash at launch",
        fix:
            "link test frameworks and test helpers only into test targets; embed debugging tools only in Debug builds (a build configuration, or a separate scheme)",
        triggeringExamples: [
            RuleExample("image Payload/App.app/App arm64 ios 16.0 26.0\n↓dylib @rpath/XCTest.framework/XCTest"),
            RuleExample(
                "image Payload/App.app/Frameworks/Nimble.framework/Nimble arm64 ios 16.0 26.0\n↓import __swift_FORCE_LOAD_$_XCTestSwiftSupport"
            ),
            RuleExample("image Payload/App.app/App arm64 ios 16.0 26.0\n↓weak-dylib @rpath/FLEX.framework/FLEX"),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\n↓reexport-dylib /usr/lib/libXCTestSwiftSupport.dylib"),
            RuleExample("kind binary\nimage . arm64 ios 16.0 26.0\n↓dylib @rpath/Testing.framework/Testing"),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\n↓dylib @rpath/XCTest.framework/XCTest\ndistribution ad-hoc"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\ndylib /System/Library/Frameworks/SwiftUI.framework/SwiftUI\nimport objc_msgSend swift_allocObject"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\ndylib @rpath/XCTestHelpersKit.framework/XCTestHelpersKit\nimport OBJC_CLASS_$_XCTextView"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\ndylib @rpath/FLEX.framework/FLEX\ndistribution ad-hoc"),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\ndylib @rpath/IssueReporting.framework/IssueReporting")
        ])

    package static let checksSingleBinaries = true

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        let debuggingTools =
            bundle.distribution.method == .development || bundle.distribution.method == .adHoc
            ? [:]
            : Dictionary(
                TestAndDebuggingLibraries.debuggingTools.map { ($0.module, $0.what) },
                uniquingKeysWith: { first, _ in first }
            )
            .merging(
                context.configuration.options(for: Self.self).debuggingTools.map {
                    ($0, "\($0) (rules.preflight-test-code-linked.debugging-tools)")
                },
                uniquingKeysWith: { first, _ in first })
        let testFrameworks = Dictionary(
            TestAndDebuggingLibraries.testFrameworks.map { ($0.module, $0.what) },
            uniquingKeysWith: { first, _ in first })
        return bundle.images.compactMap { image in
            var linked: [String] = []
            var imports: [String] = []
            // Objects ask for libraries through autolink entries (binary-test-library-dependency).
            for slice in image.readSlices where slice.fileType != .object {
                for library in slice.libraries where library.dylibLink != nil {
                    guard let what = testFrameworks[library.module] ?? debuggingTools[library.module] else { continue }
                    let entry = "\(what): \(library.name) (\(library.record))"
                    if !linked.contains(entry) { linked.append(entry) }
                }
                for name in slice.importedSymbols.names(withPrefixes: TestAndDebuggingLibraries.testSymbolPrefixes)
                where !imports.contains(name) {
                    imports.append(name)
                }
            }
            guard !linked.isEmpty || !imports.isEmpty else { return nil }
            var parts: [String] = []
            if !linked.isEmpty { parts.append("links \(linked.joined(separator: "; "))") }
            if !imports.isEmpty { parts.append("imports XCTest / Swift Testing symbols \(imports.quotedList())") }
            return bundle.finding(
                description, context.severity, at: image.path,
                message:
                    "\(bundle.shown(image)) \(parts.joined(separator: ", and ")): test or debugging code in a release build (ITMS-90338; missing on users' devices, so a crash at launch)",
                fix:
                    "link test frameworks and test helpers only into test targets; embed debugging tools only in Debug builds",
                identity: "test-code")
        }
    }
}
