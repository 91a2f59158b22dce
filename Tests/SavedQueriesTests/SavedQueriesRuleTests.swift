import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

@Suite struct SavedQueriesRuleTests {
    /// The gates as `audit` runs them: the gate check in a scan of `root`.
    private func runGates(_ root: String, _ configuration: Configuration) -> CheckResult {
        scan(
            root, configuration: configuration, with: SavedQueries.gates(root: root, configuration: configuration),
            checksListedKinds: false)
    }

    @Test(arguments: QueryCheck.ownRules(among: RuleRegistry.rules).descriptions)
    func rulesAgreeWithTheirExamples(_ rule: RuleDescription) throws {
        let preset = try #require(QueryPresets.named("merge-conflicts"))
        let failures = RuleExampleVerifier.verify(rule) { example, text in
            let directory = TemporaryDirectory()
            directory.write(example.path, text)
            let scoped = ScopedQuery(query: preset, scope: .repository, storePath: "q.yml")
            let result = QueryRunner(root: directory.path, configuration: Configuration(), timeout: nil).run([scoped])
            return result.results.flatMap { QueryRefresh(result: $0).findings }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func runGatesReportsOnlyExpectNoneQueries() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "<<<<<<< HEAD\n// FIXME\n")
        let store = QueryStore.repository(root: directory.path, configuration: Configuration())
        try store.modify { (queries: inout [SavedQuery]) throws(InputError) in
            queries = [QueryPresets.named("merge-conflicts")!, QueryPresets.named("fixme")!]
        }
        let result = runGates(directory.path, Configuration())
        #expect(result.findings.map(\.ruleID) == ["saved-query"])
        #expect(result.findings.first?.severity == .error)
        #expect(result.findings.first?.message.contains("merge-conflicts") == true)
        #expect(result.inputErrors.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/.shipcheck/state"))
    }

    @Test func runGatesReportsACorruptStore() {
        let directory = TemporaryDirectory()
        directory.write(".shipcheck/queries.yml", "queries:\n  - name: [\n")
        let result = runGates(directory.path, Configuration())
        #expect(result.inputErrors.count == 1)
        #expect(result.inputErrors.first?.path.hasSuffix(".shipcheck/queries.yml") == true)
    }

    @Test func disablingTheRuleDisablesTheGates() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "<<<<<<< HEAD\n")
        directory.write(".shipcheck/queries.yml", QueryStoreFormat.render([QueryPresets.named("merge-conflicts")!]))
        var configuration = Configuration()
        configuration.ruleSeverities["saved-query"] = .some(nil)
        #expect(runGates(directory.path, configuration).findings.isEmpty)
        configuration.ruleSeverities["saved-query"] = .warning
        #expect(runGates(directory.path, configuration).findings.map(\.severity) == [.warning])
    }
}
