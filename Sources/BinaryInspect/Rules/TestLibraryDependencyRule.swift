import ShipcheckCore

/// A test framework among the libraries an ELF image loads (`DT_NEEDED`) or an object asks the
/// linker for (autolink entries, `LC_LINKER_OPTION`). A linked Mach-O image's load commands are
/// `preflight-test-code-linked`'s (one finding per image, with what the store says of it).
package enum TestLibraryDependencyRule: BinaryRule {
    /// Module names of the test frameworks: XCTest, swift-testing, XCTest's Swift overlay
    /// (`libXCTestSwiftSupport.dylib`, formerly `libswiftXCTest.dylib`) and the rest of Apple's.
    static let testModules = Set(TestAndDebuggingLibraries.testFrameworks.map(\.module))

    package static let description = RuleDescription(
        id: "binary-test-library-dependency",
        summary: "The binary depends on a test framework (XCTest or swift-testing).",
        rationale: """
            A release artifact that loads XCTest, Testing or libXCTestSwiftSupport (ELF DT_NEEDED \
            libXCTest.so / libTesting.so), or an object that asks the linker for them (-lXCTest / \
            -lTesting autolink entries, Mach-O -framework XCTest linker options), ships or links \
            test code and drags the test frameworks into the product. Linked Mach-O images \
            (LC_LOAD_DYLIB and its variants) are checked by preflight-test-code-linked.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓needed libXCTest.so"), RuleExample("↓autolink -lTesting"),
            RuleExample("↓linker-option -framework XCTest")
        ],
        nonTriggeringExamples: [
            RuleExample("needed libswiftCore.so\nautolink -lswiftCore"), RuleExample("needed libTestingHelpers.so"),
            RuleExample("dylib /System/Library/Frameworks/SwiftUI.framework/SwiftUI\nlinker-option -framework SwiftUI"),
            RuleExample("dylib @rpath/XCTestHelpers.framework/XCTestHelpers"),
            // preflight-test-code-linked's.
            RuleExample("dylib @rpath/XCTest.framework/XCTest\nweak-dylib @rpath/libXCTestSwiftSupport.dylib")
        ])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.libraries.compactMap { library in
            guard testModules.contains(library.module), library.dylibLink == nil else { return nil }
            let (message, fix, identity) =
                switch library.kind {
                case .loaded:
                    (
                        "depends on the test framework \(library.name) (\(library.record)): test code is linked into this build",
                        "remove XCTest / Testing imports from app and library targets; link test-support code only into test targets",
                        "needed \(library.name)"
                    )
                case .autolink:
                    (
                        "autolinks the test framework (\(library.name)): this object imports XCTest or Testing",
                        "move the code that imports XCTest / Testing into a test target", "autolink \(library.name)"
                    )
                }
            return contents.finding(
                description, context.severity, message: message, section: library.section, symbol: library.name,
                offset: nil, fix: fix, identity: identity)
        }
    }
}
