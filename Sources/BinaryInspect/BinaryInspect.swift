import ShipcheckCore

/// The BinaryInspect capability: its rules, for reporters and configuration validation.
public enum BinaryInspectRules {
    static let rules: [any BinaryRule.Type] = [
        PreviewConformanceRule.self, PreviewMacroRule.self, PreviewableWrapperRule.self,
        XCTestCaseRule.self, SwiftTestingRecordRule.self, TestLibraryDependencyRule.self,
        MockSymbolRule.self, FixtureStringRule.self, BuildFactsRule.self,
    ]

    /// Rules about whole bundles (`.app`, `.ipa`, …), run once per bundle beside the leak rules
    /// that run on each binary in it.
    static let bundleRules: [any BundleRule.Type] = [
        DebugDylibRule.self, GetTaskAllowRule.self, DevelopmentPushRule.self, DevelopmentProfileRule.self, TestResourceRule.self,
    ]

    public static let all: [RuleDescription] = rules.map { $0.description } + bundle

    /// The bundle rules' descriptions (their examples are written as `BundleContents(example:)`).
    public static let bundle: [RuleDescription] = bundleRules.map { $0.description }

    /// The built-in `binary.symbol-patterns` and `binary.string-patterns`.
    public static let defaultSymbolPatterns = MockSymbolRule.defaultPatterns
    public static let defaultStringPatterns = FixtureStringRule.defaultPatterns
    /// The built-in `bundle.resource-patterns`.
    public static let defaultResourcePatterns = TestResourceRule.defaultPatterns
}
