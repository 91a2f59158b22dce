import ReleaseDiff
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// Every previous-release rule's examples: both releases read from their texts into facts
/// (through the family's example parser and the production `ReleaseFacts` builders), compared,
/// and the rule's findings matched with the new side's `↓` markers.
@Suite struct PreviousReleaseRuleExampleTests {
    static let rules = PreviousReleaseCheck.ownRules(among: RuleRegistry.rules)

    @Test(arguments: rules.descriptions.map(\.id))
    func ruleAgreesWithItsExamples(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        // Every example is compared with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            let pair = try ReleasePairExample(text)
            var configuration = Configuration()
            configuration.setOptions(pair.budgets, for: SizeBudgetRule.self)
            let findings = RuleOrders.findings(of: RuleRegistry.rules, differences: &differences) { rules in
                PreviousReleaseCheck(configuration: configuration, rules: rules)
                    .check(ReleaseComparison(old: pair.old, new: pair.new))
            }
            return RuleExampleVerifier.Scanned(findings, places: pair.places)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test(arguments: [
        "ios\nfile a\n---\nfile a",  // no family
        "android\nfile a",  // no separator
        "android\nbudget total=lots\n---\n",  // not a budget
        "android\nbudget colour=5%\n---\n",  // not a budget key
        "android\n---\nsize classes.dex 12",  // a size without both figures
        "apple\n---\nimage Payload/App.app/App arm64 nowhere 1.0 1.0"  // the side's own parser refuses it
    ])
    func aPairTheParserDoesNotReadIsAnError(_ text: String) {
        #expect(throws: InputError.self) { try ReleasePairExample(text) }
    }
}
