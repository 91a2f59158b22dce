import BinaryInspect
import ShipcheckCore

/// A test framework or debugging tool the previous release did not link.
package enum TestLibraryAddedRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-test-library-added",
        summary: "An image links a test framework or debugging tool that no image of the previous release linked.",
        rationale: """
            A test framework (XCTest, Swift Testing, XCUIAutomation) or debugging tool (FLEX, \
            Reveal, netfox…) that appears between two releases is almost always a dependency \
            change nobody meant for the store: a test helper moved into the app target, a \
            debug-only package linked in every configuration. The single-artifact rules \
            (preflight-test-code-linked, binary-test-library-dependency) judge whether it is \
            refused; this one says that it is new, so the change that brought it is found. The \
            libraries are those of preflight-test-code-linked's list, matched by module name in \
            Mach-O load commands and ELF DT_NEEDED entries.
            """,
        defaultSeverity: .warning,
        fix:
            "find the dependency change that linked it (a test helper in the app target, a debug-only package) and undo it",
        triggeringExamples: [
            RuleExample(
                """
                apple
                image Payload/App.app/App arm64 ios 16.0 26.0
                ---
                ↓image Payload/App.app/App arm64 ios 16.0 26.0
                dylib @rpath/FLEX.framework/FLEX
                """),
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1
                lib lib/arm64-v8a/libapp.so needs=liblog.so
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2
                ↓lib lib/arm64-v8a/libapp.so needs=liblog.so,libXCTest.so
                """),
            RuleExample(
                """
                apple
                kind app
                image App arm64 ios 16.0 26.0
                ---
                kind app
                ↓image App arm64 ios 16.0 26.0
                weak-dylib /usr/lib/libXCTestSwiftSupport.dylib
                """),
            RuleExample(
                """
                android
                kind aar
                manifest AndroidManifest.xml package=com.example.kit
                lib jni/arm64-v8a/libkit.so needs=liblog.so
                ---
                kind aar
                manifest AndroidManifest.xml package=com.example.kit
                ↓lib jni/arm64-v8a/libkit.so needs=liblog.so,libTesting.so
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                apple
                image Payload/App.app/App arm64 ios 16.0 26.0
                dylib @rpath/FLEX.framework/FLEX
                ---
                image Payload/App.app/App arm64 ios 16.0 26.0
                dylib @rpath/FLEX.framework/FLEX
                """),
            RuleExample(
                """
                apple
                image Payload/App.app/App arm64 ios 16.0 26.0
                ---
                image Payload/App.app/App arm64 ios 16.0 26.0
                dylib @rpath/Alamofire.framework/Alamofire
                """)
        ])

    /// The modules of the test frameworks and debugging tools, and what messages call them.
    static let libraries: [String: String] = Dictionary(
        (TestAndDebuggingLibraries.testFrameworks + TestAndDebuggingLibraries.debuggingTools).map {
            ($0.module, $0.what)
        },
        uniquingKeysWith: { first, _ in first })

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let before = Set(comparison.old.images.flatMap(\.libraries))
        var reported: Set<String> = []
        return comparison.new.images.compactMap { image in
            let added = image.libraries.filter { libraries[$0] != nil && !before.contains($0) }
            guard !added.isEmpty, reported.insert(image.path).inserted else { return nil }
            let names = added.map { libraries[$0] ?? $0 }.joined(separator: ", ")
            return comparison.finding(
                description, context.severity, at: image.path,
                message:
                    "\(image.path.isEmpty ? comparison.new.root : image.path) links \(names), which no image of the previous release (\(comparison.previousName)) linked",
                fix: "find the dependency change that linked \(names) and keep it out of release builds",
                identity: "test-library-added \(added.joined(separator: ","))")
        }
    }
}
