import ShipcheckCore

/// The ConflictScan capability: its rules, for reporters and configuration validation.
public enum ConflictScanRules {
    public static let all: [RuleDescription] = [
        ConflictMarkerRule.description,
        ConflictMarkerRemnantRule.description,
        UnmergedPathRule.description,
        MergeInProgressRule.description,
    ]
}
