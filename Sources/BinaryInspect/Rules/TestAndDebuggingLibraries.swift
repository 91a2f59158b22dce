/// The libraries that must not be linked into a build for the store, by module name (the name
/// `LinkedLibrary.module` gives `@rpath/FLEX.framework/FLEX`, `libReveal.dylib`…): Apple's test
/// frameworks, and debugging and test tools that teams embed in debug builds. Extendable with
/// `rules.preflight-test-code-linked.debugging-tools` in .shipcheck.yml. Compiled 2026-11-26 from each project's
/// documentation (the source of every row); docs/preflight.md lists them.
package enum TestAndDebuggingLibraries {
    package struct Entry {
        /// The module name a load command names it by.
        package var module: String
        package var what: String
        package var source: String
    }

    /// Apple's test frameworks: the store refuses them (ITMS-90338: non-public symbols), and a
    /// device without Xcode has none of them, so the app crashes at launch.
    package static let testFrameworks: [Entry] = [
        Entry(module: "XCTest", what: "XCTest", source: "https://developer.apple.com/documentation/xctest"),
        Entry(
            module: "XCTestSwiftSupport", what: "XCTest's Swift support library",
            source: "Xcode: Platforms/iPhoneOS.platform/Developer/usr/lib/libXCTestSwiftSupport.dylib"),
        Entry(
            module: "swiftXCTest", what: "XCTest's Swift overlay (before Xcode 12.5)",
            source: "Xcode 12 and earlier: usr/lib/libswiftXCTest.dylib"),
        Entry(
            module: "XCTestCore", what: "XCTest's core (private)",
            source: "Xcode: Platforms/iPhoneOS.platform/Developer/Library/PrivateFrameworks/XCTestCore.framework"),
        Entry(
            module: "XCUIAutomation", what: "XCUIAutomation (UI tests)",
            source: "Xcode: Platforms/iPhoneOS.platform/Developer/Library/Frameworks/XCUIAutomation.framework"),
        Entry(
            module: "XCTAutomationSupport", what: "XCTest's UI automation support (private)",
            source:
                "Xcode: Platforms/iPhoneOS.platform/Developer/Library/PrivateFrameworks/XCTAutomationSupport.framework"),
        Entry(module: "Testing", what: "Swift Testing", source: "https://developer.apple.com/documentation/testing")
    ]

    /// Debugging and test tools: in-app inspectors, network debuggers, snapshot and UI test
    /// libraries, matchers and stubs.
    package static let debuggingTools: [Entry] = [
        Entry(module: "FLEX", what: "FLEX (in-app debugging explorer)", source: "https://github.com/FLEXTool/FLEX"),
        Entry(module: "RevealServer", what: "Reveal's server (UI inspector)", source: "https://revealapp.com/docs/"),
        Entry(
            module: "Reveal", what: "Reveal (UI inspector, older library name)", source: "https://revealapp.com/docs/"),
        Entry(
            module: "LookinServer", what: "Lookin's server (UI inspector)",
            source: "https://github.com/QMUI/LookinServer"),
        Entry(module: "netfox", what: "netfox (network debugger)", source: "https://github.com/kasketis/netfox"),
        Entry(module: "Wormholy", what: "Wormholy (network debugger)", source: "https://github.com/pmusolino/Wormholy"),
        Entry(
            module: "CocoaDebug", what: "CocoaDebug (in-app debugger)",
            source: "https://github.com/CocoaDebug/CocoaDebug"),
        Entry(
            module: "DBDebugToolkit", what: "DBDebugToolkit (in-app debugger)",
            source: "https://github.com/dbukowski/DBDebugToolkit"),
        Entry(
            module: "Atlantis", what: "Atlantis (Proxyman's network capture)",
            source: "https://github.com/ProxymanApp/atlantis"),
        Entry(
            module: "SnapshotTesting", what: "SnapshotTesting (snapshot tests; links XCTest)",
            source: "https://github.com/pointfreeco/swift-snapshot-testing"),
        Entry(
            module: "FBSnapshotTestCase", what: "iOSSnapshotTestCase (snapshot tests)",
            source: "https://github.com/uber/ios-snapshot-test-case"),
        Entry(
            module: "iOSSnapshotTestCase", what: "iOSSnapshotTestCase (snapshot tests)",
            source: "https://github.com/uber/ios-snapshot-test-case"),
        Entry(module: "Quick", what: "Quick (test framework)", source: "https://github.com/Quick/Quick"),
        Entry(
            module: "Nimble", what: "Nimble (test matchers; links XCTest)", source: "https://github.com/Quick/Nimble"),
        Entry(module: "KIF", what: "KIF (UI tests; private API)", source: "https://github.com/kif-framework/KIF"),
        Entry(module: "EarlGrey", what: "EarlGrey (UI tests)", source: "https://github.com/google/EarlGrey"),
        Entry(
            module: "OHHTTPStubs", what: "OHHTTPStubs (network stubs)",
            source: "https://github.com/AliSoftware/OHHTTPStubs"),
        Entry(
            module: "Mockingjay", what: "Mockingjay (network stubs; links XCTest)",
            source: "https://github.com/kylef/Mockingjay"),
        Entry(module: "Cuckoo", what: "Cuckoo (mocks)", source: "https://github.com/Brightify/Cuckoo")
    ]

    /// Imported names that are XCTest's or Swift Testing's, whatever library they come through
    /// (a helper framework that re-exports XCTest, a static library): C-level prefixes.
    package static let testSymbolPrefixes = [
        "__swift_FORCE_LOAD_$_XCTestSwiftSupport", "__swift_FORCE_LOAD_$_swiftXCTest",
        "OBJC_CLASS_$_XCTest", "OBJC_CLASS_$_XCUI", "OBJC_METACLASS_$_XCTest",
        "$s6XCTest", "$s7Testing", "_XCT"
    ]
}
