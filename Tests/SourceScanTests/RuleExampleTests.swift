import ShipcheckCore
import ShipcheckTestSupport
import Testing
@testable import SourceScan

@Suite struct RuleExampleTests {
    @Test(arguments: SourceScanRules.all.map(\.id))
    func ruleAgreesWithItsExamples(id: String) throws {
        let rule = try #require(SourceScanRules.all.first { $0.id == id })
        #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty)
        let failures = RuleExampleVerifier.verify(rule) { root in
            SourceScanner(root: root, configuration: Configuration()).run()
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    @Test func everyRuleHasAUniqueIDAndDocumentation() {
        let ids = SourceScanRules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids) == ["preview-outside-debug", "preview-provider-outside-debug", "dev-asset-outside-debug", "dev-asset-path-missing",
                               "state-built-in-init", "dynamic-property-captures-self", "unchecked-sendable-closure"])
        for rule in SourceScanRules.all {
            #expect(!rule.summary.isEmpty && rule.rationale.count > 80, "\(rule.id)")
        }
    }
}
