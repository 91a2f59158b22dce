import ShipcheckCore

/// The SourceScan capability: its rules, for reporters and configuration validation.
public enum SourceScanRules {
    public static let all: [RuleDescription] = [
        PreviewOutsideDebugRule.description,
        PreviewProviderOutsideDebugRule.description,
        DevAssetOutsideDebugRule.description,
        DevAssetPathMissingRule.description,
    ] + fileRules.map { $0.description }

    /// The rules that read one parsed Swift file at a time, each with its own prefilter.
    static let fileRules: [any SourceFileRule.Type] = [
        StateBuiltInInitRule.self,
        DynamicPropertyCapturesSelfRule.self,
        UncheckedSendableClosureRule.self,
    ]
}
