import ShipcheckCore

/// The audit's own rules (build settings; archive breakers), for reporters and config validation.
public enum ReleaseAuditRules {
    public static let all: [RuleDescription] = BuildSettingRules.all + [ArchiveBreakerRule.description]
}
