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

    /// `XDG_CACHE_HOME` names the cache on every platform when it is an absolute path (the
    /// GitLab template sets it to a folder GitLab keeps; the tests keep their runs' caches out
    /// of the home folder through it); else the platform's own cache folder.
    @Test func theDefaultCacheFollowsXDGCacheHomeWhereverItIsSet() {
        #expect(
            ResultCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/ci/.cache", "HOME": "/h"])
                == "/ci/.cache/shipcheck")
        #if os(macOS)
        let platform = "/h/Library/Caches/shipcheck"
        #else
        let platform = "/h/.cache/shipcheck"
        #endif
        #expect(ResultCache.defaultDirectory(environment: ["HOME": "/h"]) == platform)
        #expect(ResultCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == platform)
        #expect(ResultCache.defaultDirectory(environment: [:]) == nil)
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

/// The cache folder stays bounded: entries unused for a while and the packs used least
/// recently go; what a crashed write left goes too.
@Suite struct ResultCacheEvictionTests {
    let directory = TemporaryDirectory("shipcheck-cache-eviction")
    var cachePath: String { directory.path + "/cache" }

    /// One run over `root` (a folder of the temporary directory), as a fresh process would do it.
    @discardableResult
    func run(_ root: String, sizeLimit: Int = ResultCache.defaultSizeLimit) throws -> Int {
        let cache = ResultCache(
            directory: cachePath, roots: [directory.path + "/" + root], toolVersion: "1.0", sizeLimit: sizeLimit)
        _ = SourceScanner(root: directory.path + "/" + root, configuration: Configuration(), rules: RuleRegistry.rules)
            .run(cache: cache)
        try cache.save()
        return cache.reusedCount
    }

    func packs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cachePath).filter { $0.hasPrefix("results-") }.sorted()
    }

    /// A branch switched back to within eight runs finds its files; after more, they are gone.
    @Test func aFileVersionStaysForEightRuns() throws {
        let original = "#Preview {\n    Text(\"A\")\n}\n"
        directory.write("App/A.swift", original)
        try run("App")
        for version in 1...7 {
            directory.write("App/A.swift", original + "// \(version)\n")
            try run("App")
        }
        directory.write("App/A.swift", original)
        #expect(try run("App") == 1)
        for version in 1...9 {
            directory.write("App/A.swift", original + "// \(version)\n")
            try run("App")
        }
        directory.write("App/A.swift", original)
        #expect(try run("App") == 0)
    }

    /// Over the size limit, the pack used longest ago goes; one used (not rewritten) since counts
    /// as recent.
    @Test func theLeastRecentlyUsedPackGoes() throws {
        for name in ["One", "Two", "Three"] {
            directory.write("\(name)/View.swift", "#Preview {\n    Text(\"\(name)\")\n}\n")
        }
        try run("One")
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: cachePath + "/" + packs()[0])[.size] as? Int)
        let limit = size * 5 / 2
        let old = Date(timeIntervalSinceNow: -600)
        try run("Two", sizeLimit: limit)
        for pack in try packs() {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: cachePath + "/" + pack)
        }
        let onePack = try packs()
        #expect(onePack.count == 2)
        #expect(try run("One", sizeLimit: limit) == 1)  // used, not rewritten: its time moves
        try run("Three", sizeLimit: limit)
        let left = try packs()
        #expect(left.count == 2)
        #expect(try run("One", sizeLimit: limit) == 1, "the pack used last was removed")
        #expect(try run("Two", sizeLimit: limit) == 0, "the pack used longest ago was kept")
    }

    @Test func whatACrashedWriteLeftIsRemoved() throws {
        directory.write("App/A.swift", "let a = 1\n")
        try run("App")
        let stale = directory.write("cache/.results-0123456789abcdef.pack.tmp-AbCdEf", "partial")
        let fresh = directory.write("cache/.results-fedcba9876543210.pack.tmp-GhIjKl", "being written")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: stale)
        directory.write("App/A.swift", "let a = 2\n")
        try run("App")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
