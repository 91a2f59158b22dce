import ShipcheckCore

/// The SourceScan capability: its rules, for reporters and configuration validation.
public enum SourceScanRules {
    public static let all: [RuleDescription] = [
        PreviewOutsideDebugRule.description,
        PreviewProviderOutsideDebugRule.description,
        DevAssetOutsideDebugRule.description,
        DevAssetPathMissingRule.description,
    ]
}
