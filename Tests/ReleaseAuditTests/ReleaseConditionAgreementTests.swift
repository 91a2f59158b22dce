import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import SourceScan
import StorePreflight
import Testing

/// The source rules and the privacy rules ask one question of the same `#if`s, whether a
/// release build compiles the code under them, and must give one answer: a `#Preview` that
/// `preview-outside-debug` reports is release code, so a required reason API called beside it is
/// too, and the privacy rules' source lexer must see that call; where the preview is DEBUG-only,
/// so is the call.
@Suite struct ReleaseConditionAgreementTests {
    /// One `#if` arrangement: `@` marks where the preview and the call go. `c` is the same
    /// arrangement in C's spelling (the source rules read Swift only, so a C file is judged by the
    /// Swift file of the same meaning: Xcode's Debug configuration defines `DEBUG=1` for C and
    /// sets `DEBUG` for Swift, `TARGET_OS_SIMULATOR` is the simulator, `__has_include` the
    /// module); nil when C has nothing the same.
    struct Arrangement: CustomTestStringConvertible, Sendable {
        var swift: String
        var c: String?
        /// What the table expects, so that both sides being wrong the same way fails too.
        var compiledInRelease: Bool
        var testDescription: String { swift.replacingOccurrences(of: "\n", with: " ⏎ ") }
    }

    static let arrangements: [Arrangement] = [
        Arrangement(swift: "#if DEBUG\n@\n#endif", c: "#ifdef DEBUG\n@\n#endif", compiledInRelease: false),
        Arrangement(
            swift: "#if DEBUG\n@\n#endif", c: "#if defined(DEBUG) && DEBUG\n@\n#endif", compiledInRelease: false),
        Arrangement(
            swift: "#if !DEBUG\n#else\n@\n#endif", c: "#ifndef DEBUG\n#else\n@\n#endif", compiledInRelease: false),
        Arrangement(
            swift: "#if !DEBUG\n@\n#else\n#endif", c: "#if !defined(DEBUG)\n@\n#else\n#endif", compiledInRelease: true),
        Arrangement(
            swift: "#if DEBUG || targetEnvironment(simulator)\n@\n#endif",
            c: "#if defined(DEBUG) || TARGET_OS_SIMULATOR\n@\n#endif", compiledInRelease: true),
        Arrangement(
            swift: "#if DEBUG && os(iOS)\n@\n#endif", c: "#if DEBUG && TARGET_OS_IOS\n@\n#endif",
            compiledInRelease: false),
        Arrangement(
            swift: "#if canImport(UIKit)\n@\n#endif", c: "#if __has_include(<UIKit/UIKit.h>)\n@\n#endif",
            compiledInRelease: true),
        Arrangement(
            swift: "#if os(iOS)\n#elseif DEBUG\n@\n#endif", c: "#if TARGET_OS_IOS\n#elif DEBUG\n@\n#endif",
            compiledInRelease: false),
        Arrangement(
            swift: "#if os(iOS)\n#elseif DEBUG\n#else\n@\n#endif",
            c: "#if TARGET_OS_IOS\n#elif DEBUG\n#else\n@\n#endif",
            compiledInRelease: true),
        Arrangement(
            swift: "#if os(iOS)\n#if !os(iOS)\n@\n#endif\n#endif",
            c: "#if TARGET_OS_IOS\n#if !TARGET_OS_IOS\n@\n#endif\n#endif",
            compiledInRelease: false),
        Arrangement(
            swift: "#if os(iOS)\n#else\n#if os(iOS) || DEBUG\n@\n#endif\n#endif",
            c: "#if TARGET_OS_IOS\n#else\n#if TARGET_OS_IOS || DEBUG\n@\n#endif\n#endif", compiledInRelease: false),
        Arrangement(swift: "#if DEBUG_MENU\n@\n#endif", c: "#ifdef DEBUG_MENU\n@\n#endif", compiledInRelease: false),
        Arrangement(
            swift: "#if os(iOS) || DEBUG_MENU\n@\n#endif", c: "#if TARGET_OS_IOS || defined(DEBUG_MENU)\n@\n#endif",
            compiledInRelease: true),
        Arrangement(
            swift: "#if APPSTORE\n#else\n@\n#endif", c: "#ifdef APPSTORE\n#else\n@\n#endif", compiledInRelease: false),
        Arrangement(swift: "#if APPSTORE\n@\n#endif", c: "#if APPSTORE\n@\n#endif", compiledInRelease: true),
        Arrangement(swift: "#if DEBUG || BETA\n@\n#endif", c: "#if DEBUG || BETA\n@\n#endif", compiledInRelease: true),
        Arrangement(swift: "#if !NDEBUG\n@\n#endif", c: "#ifndef NDEBUG\n@\n#endif", compiledInRelease: true),
        Arrangement(swift: "#if false\n@\n#endif", c: "#if 0\n@\n#endif", compiledInRelease: false),
        Arrangement(swift: "#if swift(>=5.9) && DEBUG\n@\n#endif", c: nil, compiledInRelease: false),
        Arrangement(
            swift: "#if os(iOS) &&\n    DEBUG\n@\n#endif", c: "#if TARGET_OS_IOS && \\\n    DEBUG\n@\n#endif",
            compiledInRelease: false)
    ]

    /// `DEBUG_MENU` is configured debug-only, `APPSTORE` release-set.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.debugOnlyFlags = ["DEBUG_MENU"]
        configuration.releaseSetFlags = ["APPSTORE"]
        return configuration
    }

    /// The source rules' answer: whether `preview-outside-debug` reports the preview.
    private func previewIsReported(_ swift: String) -> Bool {
        let directory = TemporaryDirectory("shipcheck-agreement")
        directory.write("View.swift", swift)
        let result = SourceScanner(root: directory.path, configuration: Self.configuration, rules: RuleRegistry.rules)
            .run()
        return result.findings.contains { $0.ruleID == "preview-outside-debug" }
    }

    /// The privacy rules' answer: whether the scanner they use, with the configured flags, sees
    /// the call of `mach_absolute_time()`.
    private func callIsSeen(_ source: String, _ language: SourceAPIScanner.Language) -> Bool {
        let scanner = SourceAPIScanner(flags: ReleaseBuildFlags(Self.configuration))
        return Array(source.utf8).withByteView { scanner.scan($0, language: language) }
            .contains { $0.spelling == "mach_absolute_time()" }
    }

    @Test(arguments: arrangements)
    func bothRulesAnswerAlike(_ arrangement: Arrangement) {
        let swift = arrangement.swift.replacingOccurrences(
            of: "@", with: "#Preview { P() }\nlet started = mach_absolute_time()")
        let reported = previewIsReported(swift)
        #expect(reported == arrangement.compiledInRelease, "source rules")
        #expect(callIsSeen(swift, .swift) == reported, "privacy rules, Swift")
        if let c = arrangement.c {
            let objectiveC = c.replacingOccurrences(of: "@", with: "uint64_t started = mach_absolute_time();")
            #expect(callIsSeen(objectiveC, .cFamily) == reported, "privacy rules, C: \(c)")
        }
    }
}
