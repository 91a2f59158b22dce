import Foundation
import ShipcheckCore

/// The SavedQueries capability: its rules, for reporters and configuration validation.
public enum SavedQueriesRules {
    public static let savedQuery = RuleDescription(
        id: QueryRefresh.ruleID,
        summary: "A saved query matched",
        rationale: """
            Saved queries (`shipcheck query`) are searches a team keeps in .shipcheck/queries.yml. \
            Each match is reported under this rule with the query's name; a query marked `expect: none` \
            is a gate: any match fails the run (exit 1) and `shipcheck audit`. The examples use the \
            merge-conflicts preset.
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("let a = 1\n↓<<<<<<< HEAD\nlet b = 2\n=======\nlet b = 3\n↓>>>>>>> feature\n"),
            RuleExample("↓||||||| base\r\n"),
        ],
        nonTriggeringExamples: [
            RuleExample("// <<<<<<< in a comment is not at the start of a line\n"),
            RuleExample("Title\n=======\nheading underline of seven\n"),
            RuleExample("<<<<<<<< eight markers\n"),
        ])

    public static let all: [RuleDescription] = [savedQuery]
}

/// Entry points for other capabilities and `shipcheck audit`.
public enum SavedQueries {
    /// Runs every `expect: none` query of the repository store (and the personal store when
    /// given) over `root`: their matches are the gate's findings. A store that does not parse
    /// is an input error. Does not touch last-run state.
    public static func runGates(
        root: String, configuration: Configuration, personalStore: QueryStore? = nil, timeout: Double? = QueryRunner.defaultTimeout
    ) -> CheckResult {
        guard let severityOverride = configuration.severity(for: SavedQueriesRules.savedQuery) else { return CheckResult() }
        var result = CheckResult()
        var gates: [ScopedQuery] = []
        for store in [QueryStore.repository(root: root, configuration: configuration)] + (personalStore.map { [$0] } ?? []) {
            do {
                gates += try store.load().filter(\.expectNone).map { ScopedQuery(query: $0, scope: store.scope, storePath: store.path) }
            } catch {
                result.inputErrors.append(error)
            }
        }
        if gates.isEmpty { return result }
        let run = QueryRunner(root: root, configuration: configuration, timeout: timeout).run(gates)
        result.inputErrors += run.inputErrors
        result.filesScanned = run.filesScanned
        let overridden = configuration.ruleSeverities[QueryRefresh.ruleID] != nil
        for outcome in run.results {
            for var finding in QueryRefresh(result: outcome, previous: nil).findings {
                if overridden { finding.severity = severityOverride }
                result.findings.append(finding)
            }
        }
        return result
    }
}
