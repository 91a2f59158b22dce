import ConflictScan
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// Every rule's documented examples are its first tests: each example is set up as real
/// input (a file in a git repository, an index listing, a git state file) and scanned.
@Suite struct RuleExampleTests {
    @Test(arguments: ConflictCheck.ownRules(among: RuleRegistry.rules).descriptions.map(\.id))
    func ruleAgreesWithItsExamples(_ id: String) throws {
        let rule = try #require(ConflictCheck.ownRules(among: RuleRegistry.rules).descriptions.first { $0.id == id })
        // Every example is scanned with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = RuleExampleVerifier.verify(rule) { example, text in
            let fixture = GitFixture("shipcheck-example")
            for (path, companion) in example.companions { fixture.write(path, companion) }
            switch id {
            case "unmerged-path":
                // The example is a `git ls-files --stage` listing; git builds that index.
                CommandRunner.run("git", ["update-index", "--index-info"], in: fixture.path, input: text + "\n")
            default:
                // Files, or git state files such as .git/MERGE_HEAD.
                fixture.write(example.path, text)
                fixture.git("add", "-A")  // a conflicted merge leaves its markers in tracked files
            }
            return RuleOrders.findings(of: RuleRegistry.rules, differences: &differences) { rules in
                ConflictScanner(root: fixture.path, configuration: Configuration(), rules: rules).run().findings
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func everyRuleDocumentsBothKindsOfExample() {
        for rule in ConflictCheck.ownRules(among: RuleRegistry.rules).descriptions {
            #expect(!rule.triggeringExamples.isEmpty, "\(rule.id) has no triggering example")
            #expect(!rule.nonTriggeringExamples.isEmpty, "\(rule.id) has no non-triggering example")
            #expect(!rule.rationale.isEmpty)
        }
    }
}
