import Foundation
import ReleaseAudit
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import SourceScan
import Testing

/// A cached run reports byte for byte what a cold one does (issue 41): every source rule's
/// examples, the archive-breaker rule's, the Samples audit and a tree with cross-file findings,
/// cold, warm, after editing one file and after changing the configuration.
@Suite struct ResultCacheEqualityTests {
    let cacheDirectory = TemporaryDirectory("shipcheck-result-cache")

    /// What a report shows of a run, in the order it shows it.
    struct Shown: Equatable {
        var findings: [Finding]
        var inputErrors: [InputError]
        var notes: [String]
        var explanations: [String]

        init(_ result: CheckResult) {
            findings = result.findings
            inputErrors = result.inputErrors
            notes = result.notes.map(\.noteDescription)
            explanations = result.explanations.map(\.description)
        }

        init(_ outcome: CommandOutcome) throws {
            let report = try #require(outcome.report)
            findings = report.findings
            inputErrors = report.inputErrors
            notes = outcome.messages
            explanations = outcome.explanations
        }
    }

    var choice: ResultCacheChoice {
        ResultCacheChoice(directory: cacheDirectory.path, isExplicit: true, toolVersion: "equality-test")
    }

    /// `run` with no cache, then twice with one (filling it, then using it): all three alike.
    func expectSameColdAndWarm(
        _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ run: (ResultCacheChoice) throws -> Shown
    ) rethrows -> Shown {
        let cold = try run(.none)
        let filling = try run(choice)
        let warm = try run(choice)
        #expect(filling == cold, "\(what): the run filling the cache differs", sourceLocation: sourceLocation)
        #expect(warm == cold, "\(what): the warm run differs", sourceLocation: sourceLocation)
        return warm
    }

    func audit(_ root: String, _ cache: ResultCacheChoice) throws -> Shown {
        try Shown(Frontend.audit(root: root, failingSeverity: .error, cache: cache))
    }

    @Test func everySourceRuleExampleWarm() {
        for rule in SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions + [ArchiveBreakerRule.description]
        {
            let failures = RuleExampleVerifier.verify(rule) { root in
                var result = CheckResult()
                _ = expectSameColdAndWarm("\(rule.id) example") { cache in
                    let configuration = Configuration()
                    let resultCache = cache.directory.map {
                        ResultCache(directory: $0, roots: [root], toolVersion: cache.toolVersion)
                    }
                    result =
                        ScanPipeline(root: root, configuration: configuration, cache: resultCache).run([
                            SourceRulesCheck(rules: RuleRegistry.rules, configuration: configuration),
                            ArchiveBreakerCheck(rules: RuleRegistry.rules, configuration: configuration)
                        ]).combined
                    try? resultCache?.save()
                    return Shown(result)
                }
                return result
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        }
    }

    @Test func theSamplesAuditWarm() throws {
        let shown = try expectSameColdAndWarm("Samples audit") { try audit(Repository.path("Samples"), $0) }
        #expect(!shown.findings.isEmpty)
    }

    /// The generated app of `SingleScanTests`: findings in one file that depend on others.
    @Test func crossFileFindingsWarmAfterAnEditAndAfterAConfigurationChange() throws {
        let app = SingleScanTests.generatedApp(views: 30)
        let before = try expectSameColdAndWarm("generated app") { try audit(app.path, $0) }
        #expect(before.findings.contains { $0.ruleID == "release-references-debug-only" })
        #expect(before.findings.contains { $0.ruleID == "state-built-in-init" })

        // Mock1 becomes release code: the uses of it in other files are no longer reported,
        // though only the declaring file changed.
        app.write("App/Views/View1.swift", "struct Mock1 {}\nstruct View1 { let mock = Mock1() }\n")
        let edited = try expectSameColdAndWarm("after an edit") { try audit(app.path, $0) }
        #expect(edited.findings.count < before.findings.count)
        #expect(!edited.findings.contains { $0.message.contains("'Mock1'") })

        // `Model` becomes a struct in its own file: the pending finding of `Screen.swift` goes.
        app.write("App/Model/Model.swift", "struct Model {}\n")
        let retyped = try expectSameColdAndWarm("after editing a file a finding waits on") { try audit(app.path, $0) }
        #expect(!retyped.findings.contains { $0.ruleID == "state-built-in-init" })

        app.write(".shipcheck.yml", "flags:\n  debug-only: [DEBUG_MENU]\nrules:\n  preview-outside-debug: off\n")
        let reconfigured = try expectSameColdAndWarm("after a configuration change") { try audit(app.path, $0) }
        #expect(!reconfigured.findings.contains { $0.ruleID == "preview-outside-debug" })
        #expect(reconfigured.findings.contains { $0.ruleID == "release-references-debug-only" })
    }

    /// A damaged pack is ignored and rebuilt: the run reports what a cold one does.
    @Test func aDamagedCacheIsRebuilt() throws {
        let app = SingleScanTests.generatedApp(views: 10)
        let cold = try audit(app.path, .none)
        _ = try audit(app.path, choice)
        for pack in try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path) {
            var bytes = try #require(FileManager.default.contents(atPath: cacheDirectory.path + "/" + pack))
            bytes.replaceSubrange(bytes.count / 2..<bytes.count / 2 + 8, with: Data("garbage!".utf8))
            cacheDirectory.write(pack, String(decoding: bytes, as: UTF8.self))
        }
        #expect(try audit(app.path, choice) == cold)
        #expect(try audit(app.path, choice) == cold)
    }

    /// The cache directory inside the scanned tree (GitLab keeps caches in the project) is not
    /// scanned itself.
    @Test func aCacheInsideTheTreeIsNotScanned() throws {
        let app = SingleScanTests.generatedApp(views: 10)
        let inside = ResultCacheChoice(directory: app.path + "/.cache/shipcheck", isExplicit: true, toolVersion: "t")
        let cold = try audit(app.path, .none)
        _ = try audit(app.path, inside)
        #expect(FileManager.default.fileExists(atPath: app.path + "/.cache/shipcheck"))
        #expect(try audit(app.path, inside) == cold)
    }
}
