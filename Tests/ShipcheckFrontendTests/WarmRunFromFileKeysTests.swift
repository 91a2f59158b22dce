import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// A warm run trusts what it knows of a file's metadata, as git's index does (issue 50): a file
/// whose key (device, inode, size, modification and change times) is the one the last run read
/// it with is not opened, and its results come from the cache by content hash. Every way a file
/// can change under an unchanged-looking name is still seen: each run reports what a cold one
/// does on the same tree.
@Suite struct WarmRunFromFileKeysTests {
    let cacheDirectory = TemporaryDirectory("shipcheck-warm-keys")

    var choice: ResultCacheChoice {
        ResultCacheChoice(directory: cacheDirectory.path, isExplicit: true, toolVersion: "warm-keys-test")
    }

    typealias Shown = ResultCacheEqualityTests.Shown

    func audit(_ root: String, _ cache: ResultCacheChoice, source: any FileSource = DiskFileSource()) throws -> Shown {
        try Shown(Frontend.audit(root: root, failingSeverity: .error, source: source, cache: cache))
    }

    /// The generated app of `SingleScanTests`, with a cache filled by a run that read every file
    /// more than a second after they were written (so no key it took is racy).
    func warmApp() throws -> GitFixture {
        let app = SingleScanTests.generatedApp(views: 10)
        Thread.sleep(forTimeInterval: 1.2)
        _ = try audit(app.path, choice)
        return app
    }

    /// The paths under `app` of the files a warm run opened, other than those every run reads
    /// first (configuration, query store, attributes, projects and their settings).
    func openedBeyondTheSetUp(_ source: CountingFileSource, in app: GitFixture) -> Set<String> {
        let setUp = [".shipcheck.yml", ".shipcheck/queries.yml", ".gitattributes", "Package.swift"]
        return Set(
            source.opens.keys.map { String($0.dropFirst(app.path.count + 1)) }.filter { path in
                !setUp.contains(path) && !path.contains(".xcodeproj/") && !path.hasSuffix(".xcconfig")
            })
    }

    @Test func unchangedFilesAreNotOpened() throws {
        let app = try warmApp()
        let cold = try audit(app.path, .none)
        let source = CountingFileSource()
        #expect(try audit(app.path, choice, source: source) == cold)
        #expect(openedBeyondTheSetUp(source, in: app).isEmpty, "\(source.opens.keys.sorted())")
    }

    /// An edit that keeps the size and puts the modification time back still changes the change
    /// time: the file is read.
    @Test func aSameSizeEditRightAfterTheCacheWriteIsSeen() throws {
        let app = try warmApp()
        let path = app.path + "/App/Views/View0.swift"
        let before = try #require(SystemCalls.fileKey(of: path))
        let text = try #require(try? String(contentsOfFile: path, encoding: .utf8))
        app.write("App/Views/View0.swift", text.replacingOccurrences(of: "#Preview", with: "//review"))
        _ = SystemCalls.setTimes(
            of: path, seconds: Int(before.modified / 1_000_000_000), nanoseconds: Int(before.modified % 1_000_000_000))
        #expect(SystemCalls.fileKey(of: path)?.size == before.size)
        let source = CountingFileSource()
        let warm = try audit(app.path, choice, source: source)
        #expect(warm == (try audit(app.path, .none)))
        #expect(!warm.findings.contains { $0.location.path == "App/Views/View0.swift" })
        #expect(openedBeyondTheSetUp(source, in: app) == ["App/Views/View0.swift"])
    }

    /// A key taken less than a second before the run that took it began may stay the same
    /// through a write in the same timestamp tick: the next run compares such a file by content.
    @Test func aRacyKeyIsComparedByContent() throws {
        let root = cacheDirectory.path + "/tree"
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let racy = FileKey(device: 1, inode: 2, size: 3, modified: now, changed: now)
        let settled = FileKey(device: 1, inode: 3, size: 3, modified: now - 5_000_000_000, changed: now - 5_000_000_000)
        let first = ResultCache(directory: cacheDirectory.path, roots: [root], toolVersion: "t")
        first.recordRead(path: root + "/racy", key: racy, contentHash: "a")
        first.recordRead(path: root + "/settled", key: settled, contentHash: "b")
        try first.save()
        let second = ResultCache(directory: cacheDirectory.path, roots: [root], toolVersion: "t")
        #expect(second.knowsFileKeys)
        #expect(second.unchangedContentHash(path: root + "/racy", key: racy) == nil)
        #expect(second.unchangedContentHash(path: root + "/settled", key: settled) == "b")
        var touched = settled
        touched.modified += 1
        #expect(second.unchangedContentHash(path: root + "/settled", key: touched) == nil)
        #expect(second.unchangedContentHash(path: root + "/other", key: settled) == nil)
    }

    /// A new modification time with the same bytes: the file is read, and its results are
    /// still the cache's (same content hash).
    @Test func aTouchWithoutAChangeReadsTheFileAndKeepsItsResults() throws {
        let app = try warmApp()
        let cold = try audit(app.path, .none)
        _ = SystemCalls.setTimes(of: app.path + "/App/Views/View1.swift", seconds: Int(Date().timeIntervalSince1970))
        let source = CountingFileSource()
        #expect(try audit(app.path, choice, source: source) == cold)
        #expect(openedBeyondTheSetUp(source, in: app) == ["App/Views/View1.swift"])
    }

    /// Another file of the same size and modification time renamed over the original: its
    /// inode (and change time) differ.
    @Test func aFileReplacedByOneOfTheSameSizeAndTimeIsRead() throws {
        let app = try warmApp()
        let path = app.path + "/App/Views/View0.swift"
        let before = try #require(SystemCalls.fileKey(of: path))
        let text = try #require(try? String(contentsOfFile: path, encoding: .utf8))
        let replacement = app.write(
            "App/Views/.View0.swift.new", text.replacingOccurrences(of: "#Preview", with: "//review"))
        _ = SystemCalls.setTimes(
            of: replacement, seconds: Int(before.modified / 1_000_000_000),
            nanoseconds: Int(before.modified % 1_000_000_000))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: replacement, toPath: path)
        let after = try #require(SystemCalls.fileKey(of: path))
        #expect(after.size == before.size && after.modified == before.modified && after.inode != before.inode)
        let warm = try audit(app.path, choice)
        #expect(warm == (try audit(app.path, .none)))
        #expect(!warm.findings.contains { $0.location.path == "App/Views/View0.swift" })
    }

    /// A checkout that rewrites every file: every result is worked out again.
    @Test func aCheckoutRewritingEveryFileIsSeen() throws {
        let app = try warmApp()
        let original = app.git("rev-parse", "HEAD").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for index in 0..<10 {
            app.write("App/Views/View\(index).swift", "#Preview { Text(\"\(index)\") }\n")
        }
        app.commitAll("every view a preview")
        let rewritten = try audit(app.path, choice)
        #expect(rewritten == (try audit(app.path, .none)))
        #expect(rewritten.findings.filter { $0.ruleID == "preview-outside-debug" }.count >= 10)
        app.git("checkout", "-q", original)
        let back = try audit(app.path, choice)
        #expect(back == (try audit(app.path, .none)))
    }

    /// The configuration decides results the files' keys do not: a change is a new cache key.
    @Test func aConfigurationChangeWithUnchangedFilesIsSeen() throws {
        let app = try warmApp()
        app.write(".shipcheck.yml", "flags:\n  debug-only: [DEBUG_MENU]\nrules:\n  preview-outside-debug: off\n")
        let warm = try audit(app.path, choice)
        #expect(warm == (try audit(app.path, .none)))
        #expect(!warm.findings.contains { $0.ruleID == "preview-outside-debug" })
    }
}

/// Damage to the pack is never taken for a result: an entry whose value's checksum fails is no
/// entry, and a file record whose checksum fails makes the whole pack untrusted.
@Suite struct ResultPackDamageTests {
    let directory = TemporaryDirectory("shipcheck-pack-damage")
    var root: String { directory.path + "/tree" }
    let settled = FileKey(device: 1, inode: 2, size: 3, modified: 1_000_000_000, changed: 1_000_000_000)

    /// A pack holding one entry and one file record, with a byte of `marker` changed, read back.
    func cache(damaging marker: String?) throws -> ResultCache {
        let cache = ResultCache(directory: directory.path + "/cache", roots: [root], toolVersion: "t")
        cache.record("value MARKER-IN-VALUE", for: ResultKey(high: 1, low: 2))
        cache.recordRead(path: root + "/file", key: settled, contentHash: "MARKER-IN-HASH")
        try cache.save()
        let packs = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/cache")
        let pack = directory.path + "/cache/" + (try #require(packs.first { $0.hasPrefix("results-") }))
        var bytes = try #require(FileManager.default.contents(atPath: pack)).map { $0 }
        guard let marker else {
            return ResultCache(directory: directory.path + "/cache", roots: [root], toolVersion: "t")
        }
        let needle = Array(marker.utf8)
        let at = try #require(
            bytes.indices.first { bytes[$0...].starts(with: needle) }, "the pack does not hold \(marker)")
        bytes[at] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: pack))
        return ResultCache(directory: directory.path + "/cache", roots: [root], toolVersion: "t")
    }

    @Test func anUndamagedPackIsTrusted() throws {
        let cache = try cache(damaging: nil)
        #expect(cache.value(String.self, for: ResultKey(high: 1, low: 2)) == "value MARKER-IN-VALUE")
        #expect(cache.unchangedContentHash(path: root + "/file", key: settled) == "MARKER-IN-HASH")
    }

    @Test func aDamagedValueIsNoEntry() throws {
        let cache = try cache(damaging: "MARKER-IN-VALUE")
        #expect(cache.value(String.self, for: ResultKey(high: 1, low: 2)) == nil)
        #expect(cache.unchangedContentHash(path: root + "/file", key: settled) == "MARKER-IN-HASH")
    }

    @Test func aDamagedFileRecordMakesThePackUntrusted() throws {
        let cache = try cache(damaging: "MARKER-IN-HASH")
        #expect(!cache.knowsFileKeys)
        #expect(cache.value(String.self, for: ResultKey(high: 1, low: 2)) == nil)
    }
}
