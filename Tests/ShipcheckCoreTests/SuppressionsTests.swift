import ShipcheckCore
import Testing

/// The one suppression grammar: `shipcheck:ignore RULE[, RULE…] -- reason` in a comment the
/// file type allows, on the line above the finding, after it on its line, or in the comment
/// block above its declaration.
@Suite struct SuppressionsTests {
    func decision(
        _ text: String, path: String = "View.swift", rule: String = "some-rule", line: Int,
        leadingLines: ClosedRange<Int>? = nil, deprecatedForms: Bool = false
    ) -> Suppressions.Decision {
        Suppressions(Array(text.utf8), path: path).decision(
            rule: rule, line: line, leadingLines: leadingLines, acceptsDeprecatedForms: deprecatedForms)
    }

    @Test func aCommentAboveOrAfterWithAReasonSuppresses() {
        #expect(decision("// shipcheck:ignore some-rule -- why\nfinding\n", line: 2) == .suppressed)
        #expect(decision("finding // shipcheck:ignore some-rule -- why\n", line: 1) == .suppressed)
        #expect(decision("/// shipcheck:ignore other, some-rule -- why\nfinding\n", line: 2) == .suppressed)
        #expect(decision("/* shipcheck:ignore some-rule -- why */\nfinding\n", line: 2) == .suppressed)
        #expect(
            decision("<!-- shipcheck:ignore some-rule -- why -->\nfinding\n", path: "README.md", line: 2) == .suppressed
        )
        #expect(decision("# shipcheck:ignore some-rule -- why\nfinding\n", path: "ci.yml", line: 2) == .suppressed)
    }

    @Test func theCommentBlockAboveADeclarationCounts() {
        let text = "// shipcheck:ignore some-rule -- why\n/// Docs.\n@MainActor\nfinding\n"
        #expect(decision(text, line: 4, leadingLines: 1...4) == .suppressed)
        #expect(decision(text, line: 4) == .report, "without the declaration's lines only the line above counts")
    }

    @Test func withoutAReasonItDoesNotSuppress() {
        #expect(decision("// shipcheck:ignore some-rule\nfinding\n", line: 2) == .missingReason)
        #expect(decision("// shipcheck:ignore some-rule --   \nfinding\n", line: 2) == .missingReason)
    }

    @Test func otherRulesOtherLinesAndOtherSyntaxesDoNot() {
        #expect(decision("// shipcheck:ignore another-rule -- why\nfinding\n", line: 2) == .report)
        #expect(decision("// shipcheck:ignore some-rule -- why\n\nfinding\n", line: 3) == .report)
        #expect(
            decision("# shipcheck:ignore some-rule -- why\nfinding\n", line: 2) == .report, "# is not a Swift comment")
        #expect(decision("let s = \"// shipcheck:ignore some-rule -- in a string\"\nfinding\n", line: 2) == .report)
    }

    @Test func conflictMarkersStillTakeTheOldFormsAsDeprecated() {
        #expect(
            decision("# shipcheck:ignore some-rule\nfinding\n", line: 2, deprecatedForms: true)
                == .suppressedByDeprecatedForm(line: 1))
        #expect(
            decision("finding shipcheck:ignore some-rule\n", line: 1, deprecatedForms: true)
                == .suppressedByDeprecatedForm(line: 1))
        #expect(
            decision("// shipcheck:ignore some-rule (documented)\nfinding\n", line: 2, deprecatedForms: true)
                == .suppressedByDeprecatedForm(line: 1))
        #expect(
            decision("// shipcheck:ignore some-rule -- documented\nfinding\n", line: 2, deprecatedForms: true)
                == .suppressed)
        #expect(
            Suppressions(Array("# shipcheck:ignore conflict-marker\nx\n".utf8), path: "a.txt")
                .decision(
                    rule: "conflict-marker-remnant", aliases: ["conflict-marker"], line: 2, acceptsDeprecatedForms: true
                ) != .report)
    }

    private enum PlainRule: Rule {
        static let description = RuleDescription(
            id: "some-rule", summary: "s", rationale: "r", defaultSeverity: .warning)
    }

    private enum LenientRule: Rule {
        static let description = RuleDescription(
            id: "lenient-rule", summary: "s", rationale: "r", defaultSeverity: .warning)
        static let suppression = SuppressionPolicy(alsoSilencedBy: ["some-rule"], acceptsDeprecatedForms: true)
    }

    /// Every engine applies a rule's policy the same way: a finding on line 2 of `text`.
    private func outcome(_ text: String, _ rule: any Rule.Type) -> SuppressionOutcome {
        let finding = Finding(
            ruleID: rule.id, severity: .warning, message: "m",
            location: .source(SourceLocation(path: "a.txt", line: 2, column: 1)))
        return Suppressions(Array(text.utf8), path: "a.txt").outcome(of: finding, rule: rule)
    }

    @Test func aRulesPolicyDecidesWhatSilencesIt() {
        #expect(outcome("# shipcheck:ignore some-rule -- why\nx\n", PlainRule.self) == .suppressed)
        guard case .reported(let finding) = outcome("# shipcheck:ignore some-rule\nx\n", PlainRule.self) else {
            Issue.record("a directive without a reason must not silence")
            return
        }
        #expect(finding.message == "m" + Suppressions.missingReasonNote)
        #expect(
            outcome("# shipcheck:ignore some-rule\nx\n", LenientRule.self) == .suppressedByDeprecatedForm(line: 1),
            "another rule's id the policy names, in a deprecated form")
        #expect(outcome("# shipcheck:ignore lenient-rule -- why\nx\n", PlainRule.self) != .suppressed)
    }

    @Test(arguments: [
        ("App/View.swift", ["//", "/*"]), ("Makefile", ["#"]), ("docs/a.md", ["<!--"]),
        ("notes.rst", ["//", "/*", "#", "<!--", "--", ";"])
    ])
    func commentSyntaxFollowsTheFileType(_ path: String, _ openers: [String]) {
        #expect(CommentSyntax.openers(forPath: path) == openers)
    }
}
