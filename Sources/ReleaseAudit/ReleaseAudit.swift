import ShipcheckCore

/// The ReleaseAudit capability: its rules, for reporters and configuration validation.
public enum ReleaseAuditRules {
    public static let all: [RuleDescription] = []
}
