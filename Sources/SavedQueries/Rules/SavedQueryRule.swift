import ShipcheckCore

/// A saved query's match. Its check is the query itself (`QueryCheck`); the examples use the
/// merge-conflicts preset.
package enum SavedQueryRule: Rule {
    package static let description = RuleDescription(
        id: "saved-query",
        summary: "A saved query matched",
        rationale: """
            Saved queries (`shipcheck query`) are searches a team keeps in .shipcheck/queries.yml. \
            Each match is reported under this rule with the query's name; a query marked `expect: none` \
            is a gate: any match fails the run (exit 1) and `shipcheck audit`. The examples use the \
            merge-conflicts preset.
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("let a = 1\n↓«error»<<<<<<< HEAD\nlet b = 2\n=======\nlet b = 3\n↓«error»>>>>>>> feature\n"),
            RuleExample("↓«error»||||||| base\r\n")
        ],
        nonTriggeringExamples: [
            RuleExample("// <<<<<<< in a comment is not at the start of a line\n"),
            RuleExample("Title\n=======\nheading underline of seven\n"),
            RuleExample("<<<<<<<< eight markers\n")
        ])
}
