import ShipcheckCore

/// The SavedQueries capability: its rules, for reporters and configuration validation.
public enum SavedQueriesRules {
    public static let all: [RuleDescription] = []
}
