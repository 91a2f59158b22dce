import ShipcheckCore

/// The BinaryInspect capability: its rules, for reporters and configuration validation.
public enum BinaryInspectRules {
    public static let all: [RuleDescription] = []
}
