import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct RuleRegistryTests {
    @Test func everyRuleHasAUniqueIDAndDocumentation() {
        let ids = RuleRegistry.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in RuleRegistry.descriptions {
            #expect(!rule.summary.isEmpty && rule.rationale.count > 60, "\(rule.id)")
        }
    }

    /// Markers are what make an example assert the count, place and severity of the findings
    /// (RuleExample): a triggering example without one would only prove "some finding", and a
    /// marker in a non-triggering example would assert nothing.
    @Test(arguments: RuleRegistry.descriptions.map(\.id))
    func everyTriggeringExampleCarriesMarkers(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        #expect(!rule.triggeringExamples.isEmpty, "\(id) has no triggering example")
        #expect(!rule.nonTriggeringExamples.isEmpty, "\(id) has no non-triggering example")
        for example in rule.triggeringExamples {
            let markers = try example.unmarked.markers
            #expect(!markers.isEmpty, "\(id): a triggering example without a ↓ marker:\n\(example.text)")
        }
        for example in rule.nonTriggeringExamples {
            let markers = try example.unmarked.markers
            #expect(markers.isEmpty, "\(id): a non-triggering example with a ↓ marker:\n\(example.text)")
        }
    }

    /// A rule declared but left out of the registry is never run, listed or configurable, and
    /// nothing else would notice: every type the sources declare as a rule must be registered.
    @Test func everyRuleTypeInTheSourcesIsRegistered() throws {
        let declared = try Self.declaredRuleTypes()
        let registered = Set(RuleRegistry.rules.map { String(describing: $0) })
        #expect(declared.count >= 40, "the source scan found only \(declared.sorted())")
        #expect(
            declared.subtracting(registered).isEmpty,
            "declared but not registered: \(declared.subtracting(registered).sorted())")
        #expect(
            registered.subtracting(declared).isEmpty,
            "registered but not found in Sources/: \(registered.subtracting(declared).sorted())")
    }

    /// The types Sources/ declares as `Rule` or a protocol refining it.
    private static func declaredRuleTypes() throws -> Set<String> {
        let texts = try SourceDeclarations.texts()
        let protocolPattern = try Regex(#"protocol (\w+): Rule\b"#)
        var ruleProtocols: Set<String> = ["Rule"]
        for text in texts {
            for match in text.matches(of: protocolPattern) { ruleProtocols.insert(String(match.output[1].substring!)) }
        }
        return try SourceDeclarations.types(in: texts, conformingTo: ruleProtocols)
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
            #expect(
                row?.contains("| \(rule.defaultSeverity.rawValue)") == true,
                "README gives \(rule.id) another severity than \(rule.defaultSeverity)")
        }
    }
}
