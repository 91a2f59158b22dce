import ShipcheckCore

/// The BinaryInspect capability: its rules, for reporters and configuration validation.
public enum BinaryInspectRules {
    static let rules: [any BinaryRule.Type] = [
        PreviewConformanceRule.self, PreviewMacroRule.self, PreviewableWrapperRule.self,
        XCTestCaseRule.self, SwiftTestingRecordRule.self, TestLibraryDependencyRule.self,
        MockSymbolRule.self, FixtureStringRule.self, BuildFactsRule.self,
    ]

    public static let all: [RuleDescription] = rules.map { $0.description }

    /// The built-in `binary.symbol-patterns` and `binary.string-patterns`.
    public static let defaultSymbolPatterns = MockSymbolRule.defaultPatterns
    public static let defaultStringPatterns = FixtureStringRule.defaultPatterns
}
