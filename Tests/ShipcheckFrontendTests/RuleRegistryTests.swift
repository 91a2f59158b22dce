import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Foundation
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

/// The README's rule table is the user's map of every rule: it must list each rule of the
/// registry, at its real default severity.
@Suite struct ReadmeRuleTableTests {
    @Test func everyRegisteredRuleIsInTheReadmeWithItsSeverity() throws {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(RuleRegistry.descriptions.count >= 20)
        for rule in RuleRegistry.descriptions {
            let row = rows.first { $0.contains("`\(rule.id)`") }
            #expect(row != nil, "README lacks rule \(rule.id)")
            #expect(row?.contains("| \(rule.defaultSeverity.rawValue)") == true, "README gives \(rule.id) another severity than \(rule.defaultSeverity)")
        }
    }
}
