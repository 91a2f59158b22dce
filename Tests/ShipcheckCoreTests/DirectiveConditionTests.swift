import Testing

@testable import ShipcheckCore

/// A directive's text read as a release build sees it: what the privacy rules' lexer asks about
/// each `#if` / `#elif` line of Swift and C-family sources.
@Suite struct DirectiveConditionTests {
    let flags = ReleaseBuildFlags(debugOnly: ["DEBUG_MENU"], releaseSet: ["APPSTORE"])

    private func verdict(_ text: String, _ dialect: ConditionDialect = .c) -> ReleaseVerdict {
        flags.verdict(flags.condition(ofDirective: text, dialect: dialect))
    }

    @Test(arguments: [
        "DEBUG", "defined(DEBUG)", "defined DEBUG", "defined ( DEBUG ) && TARGET_OS_IOS", "DEBUG_MENU || 0",
        "!APPSTORE", "!defined(APPSTORE)", "0", "0x0", "0UL", "(DEBUG) /* the menu */", "DEBUG \\\n && TARGET_OS_IOS",
        "__has_include(<UIKit/UIKit.h>) && !(1)", "defined(DEBUG) && DEBUG // Xcode's DEBUG=1"
    ])
    func neverCompiledInRelease(_ text: String) {
        #expect(verdict(text) == .excluded, "\(text)")
    }

    /// Unknowns are named by their normalised text, so a message can say which value compiles it.
    @Test func unknownsAreNamedByTheirText() {
        #expect(verdict("1") == .compiled(when: []))
        #expect(verdict("APPSTORE") == .compiled(when: []))
        #expect(verdict("!defined(NDEBUG)") == .compiled(when: ["!defined(NDEBUG)"]))
        #expect(verdict("NDEBUG") == .compiled(when: ["NDEBUG"]))
        #expect(verdict("__has_include( \"Menu.h\" )") == .compiled(when: ["__has_include(\"Menu.h\")"]))
        #expect(
            verdict("__IPHONE_OS_VERSION_MIN_REQUIRED >= 170000")
                == .compiled(when: ["__IPHONE_OS_VERSION_MIN_REQUIRED >= 170000"]))
        #expect(verdict("DEBUG || TARGET_OS_SIMULATOR") == .compiled(when: ["TARGET_OS_SIMULATOR"]))
        #expect(
            verdict("DEBUG || targetEnvironment( simulator )", .swift)
                == .compiled(when: ["targetEnvironment(simulator)"]))
        #expect(verdict("swift(>=5.9) && !os(watchOS)", .swift) == .compiled(when: ["swift(>=5.9)", "!os(watchOS)"]))
    }

    /// Swift has `true` / `false` and no `defined`; C has integer literals.
    @Test func eachDialectItsOwnLiterals() {
        #expect(verdict("false", .swift) == .excluded)
        #expect(verdict("true && DEBUG_MENU", .swift) == .excluded)
        #expect(verdict("false") == .compiled(when: ["false"]))
        #expect(verdict("defined(DEBUG)", .swift) != .excluded)
    }

    /// What does not parse, or nests or runs longer than any hand-written condition (a hostile
    /// file's), is one unknown: the code under it counts as compiled.
    @Test(arguments: [
        "DEBUG &&", "(DEBUG", "DEBUG)", "", "defined(", "&& DEBUG",
        String(repeating: "(", count: 65) + "DEBUG" + String(repeating: ")", count: 65),
        String(repeating: "!", count: 66) + "DEBUG", String(repeating: "DEBUG && ", count: 200) + "DEBUG"
    ])
    func unreadConditionsAreUnknown(_ text: String) {
        #expect(verdict(text) != .excluded, "\(text)")
    }
}
