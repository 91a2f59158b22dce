import AndroidArtifacts
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct AndroidRuleExampleTests {
    @Test(arguments: AndroidInspector.ownRules(among: RuleRegistry.rules).descriptions.map(\.id))
    func ruleAgreesWithItsExamples(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty)
        let inspector = AndroidInspector(configuration: Configuration(), rules: RuleRegistry.rules)
        for example in rule.triggeringExamples {
            let (text, markers) = example.unmarked
            #expect(!markers.isEmpty, "\(rule.id): a triggering example without a ↓ marker:\n\(text)")
            let artifact = try AndroidArtifact(example: text)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            // Each marker stands for one finding about the entry its line names (or the folder
            // holding it), at the rule's default severity or below it for an announced floor.
            let expected = markers.map { marker in
                let fields = lines[marker.line - 1].split(separator: " ")
                return fields.first == "bundle-config" ? "BundleConfig.pb" : String(fields[1])
            }
            let findings = inspector.check(artifact).filter { $0.ruleID == rule.id }
            #expect(
                findings.count == expected.count,
                "\(rule.id): \(findings.count) findings for \(expected.count) markers in:\n\(text)\n\(findings.map(\.message))"
            )
            var unmatched = expected
            for finding in findings {
                let inner = String(finding.location.path.dropFirst(artifact.root.count + 1))
                let index = unmatched.firstIndex {
                    $0 == inner || $0.hasPrefix(inner + "/") || (inner.isEmpty && $0 == "")
                }
                #expect(index != nil, "\(rule.id): a finding at '\(inner)' where no marker is, in:\n\(text)")
                if let index { unmatched.remove(at: index) }
                #expect(finding.severity <= rule.defaultSeverity)
            }
        }
        for example in rule.nonTriggeringExamples {
            let findings = inspector.check(try AndroidArtifact(example: example.text)).filter { $0.ruleID == rule.id }
            #expect(
                findings.isEmpty,
                "\(rule.id): non-triggering example reported \(findings.map(\.message)):\n\(example.text)")
        }
    }
}
