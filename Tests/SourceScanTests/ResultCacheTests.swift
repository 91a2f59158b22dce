import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import SourceScan
import Testing

/// The result cache of `shipcheck sources`: a re-run parses only what changed and reports the
/// same findings.
@Suite struct ResultCacheTests {
    let directory = TemporaryDirectory("shipcheck-cache")
    var cachePath: String { directory.path + "/cache" }
    var root: String { directory.path + "/Sources" }

    init() {
        directory.write("Sources/A.swift", "#Preview {\n    Text(\"A\")\n}\n")
        directory.write("Sources/B.swift", "struct B_Previews: PreviewProvider {}\n")
        directory.write("Sources/Plain.swift", "let plain = 1\n")
    }

    /// One run with the cache at `cachePath`, as a fresh process would do it.
    func run(configuration: Configuration = Configuration(), toolVersion: String = "1.0") throws -> (
        result: CheckResult, reused: Int
    ) {
        let cache = ResultCache(directory: cachePath, roots: [root], toolVersion: toolVersion)
        let result = SourceScanner(root: root, configuration: configuration, rules: RuleRegistry.rules).run(
            cache: cache)
        try cache.save()
        return (result, cache.reusedCount)
    }

    func rules(_ result: CheckResult) -> [String] {
        result.findings.sorted(by: Finding.readingOrder).map { "\($0.location.path) \($0.ruleID)" }
    }

    @Test func unchangedFilesAreReusedWithTheSameFindings() throws {
        let first = try run()
        #expect(first.reused == 0)
        #expect(rules(first.result) == ["A.swift preview-outside-debug", "B.swift preview-provider-outside-debug"])
        let second = try run()
        #expect(second.reused == 3)
        #expect(second.result.findings == first.result.findings)
    }

    @Test func aChangedFileIsScannedAgain() throws {
        _ = try run()
        directory.write("Sources/B.swift", "#if DEBUG\nstruct B_Previews: PreviewProvider {}\n#endif\n")
        let after = try run()
        #expect(after.reused == 2)
        #expect(rules(after.result) == ["A.swift preview-outside-debug"])
    }

    @Test func otherSettingsOrAnotherVersionParseEverythingAgain() throws {
        _ = try run()
        var configuration = Configuration()
        configuration.releaseSetFlags = ["PREVIEWS_IN_RELEASE"]
        #expect(try run(configuration: configuration).reused == 0)
        #expect(try run(configuration: configuration, toolVersion: "1.1").reused == 0)
        #expect(try run(configuration: configuration, toolVersion: "1.1").reused == 3)
    }

    /// Which files are generated, and which rules report in them, decide a file's findings too.
    @Test func generatedSettingsAreSettings() throws {
        directory.write(
            "Sources/Hooks.swift",
            "enum Hooks { nonisolated(unsafe) static var done: () -> Void = {} }\n@MainActor func setUp() { Hooks.done = { print(1) } }\n"
        )
        #expect(rules(try run().result).contains("Hooks.swift unchecked-sendable-closure"))
        var configuration = Configuration()
        configuration.generated = GlobList(["Hooks.swift"])
        let generated = try run(configuration: configuration)
        #expect(generated.reused == 0)
        #expect(!rules(generated.result).contains("Hooks.swift unchecked-sendable-closure"))
        configuration.checkGenerated = ["unchecked-sendable-closure"]
        let checked = try run(configuration: configuration)
        #expect(checked.reused == 0)
        #expect(rules(checked.result).contains("Hooks.swift unchecked-sendable-closure"))
    }

    @Test func aCorruptCacheIsAnEmptyOne() throws {
        _ = try run()
        let packs = try FileManager.default.contentsOfDirectory(atPath: cachePath)
        #expect(packs.count == 1)
        for pack in packs { directory.write("cache/" + pack, "{ not json") }
        let result = try run()
        #expect(result.reused == 0)
        #expect(result.result.inputErrors.isEmpty)
        #expect(try run().reused == 3)
    }
}
