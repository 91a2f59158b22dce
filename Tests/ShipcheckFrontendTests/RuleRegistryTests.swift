import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct RuleRegistryTests {
    @Test func everyRuleHasAUniqueIDAndBothKindsOfExample() {
        let ids = RuleRegistry.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in RuleRegistry.descriptions {
            #expect(!rule.summary.isEmpty && rule.rationale.count > 60, "\(rule.id)")
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty, "\(rule.id) needs examples both ways")
        }
    }
}
