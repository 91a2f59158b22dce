import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SourceScan

@Suite struct RuleExampleTests {
    @Test(arguments: SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions.map(\.id))
    func ruleAgreesWithItsExamples(id: String) throws {
        let rule = try #require(SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions.first { $0.id == id })
        #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty)
        // Every example is scanned with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = RuleExampleVerifier.verify(rule) { root in
            RuleOrders.result(of: RuleRegistry.rules, differences: &differences) { rules in
                SourceScanner(root: root, configuration: Configuration(), rules: rules).run()
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func everyRuleHasAUniqueIDAndDocumentation() {
        let ids = SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(
            Set(ids).isSuperset(of: [
                "preview-outside-debug", "preview-provider-outside-debug", "dev-asset-outside-debug",
                "dev-asset-path-missing"
            ]))
        for rule in SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions {
            #expect(!rule.summary.isEmpty && rule.rationale.count > 80, "\(rule.id)")
        }
    }
}
