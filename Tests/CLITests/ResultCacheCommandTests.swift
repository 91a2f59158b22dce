import Dispatch
import Foundation
import ScanEngine
import ShipcheckTestSupport
import Synchronization
import Testing

/// The result cache through the real binary: runs at the same time share one safely, and a
/// cache that cannot be written fails only a run that asked for it.
@Suite struct ResultCacheCommandTests {
    private var app: String { Repository.path("Samples/App") }

    @Test func runsAtTheSameTimeShareOneCache() throws {
        let cache = TemporaryDirectory("shipcheck-shared-cache")
        let cold = CommandRunner.shipcheck(["audit", "--no-cache", "--format", "json", app])
        #expect(cold.status == 1, "\(cold.stderr)")
        let outputs = Mutex<[CommandResult]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = CommandRunner.shipcheck(["audit", "--cache-path", cache.path, "--format", "json", app])
            outputs.withLock { $0.append(result) }
        }
        for result in outputs.withLock({ $0 }) + [
            CommandRunner.shipcheck(["audit", "--cache-path", cache.path, "--format", "json", app])
        ] {
            #expect(result.status == 1, "\(result.stderr)")
            #expect(Self.withoutTimings(result.stdout) == Self.withoutTimings(cold.stdout))
        }
        // One complete pack, no temporary file left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(names.count == 1 && names[0].hasPrefix("results-") && names[0].hasSuffix(".pack"), "\(names)")
    }

    @Test func aCacheThatCannotBeWrittenFailsOnlyTheRunThatNamedIt() throws {
        let named = CommandRunner.shipcheck(["sources", "--cache-path", "/dev/null/cache", "--format", "json", app])
        #expect(named.status == 2, "\(named.stderr)")
        #expect(named.stderr.contains("/dev/null/cache"), "\(named.stderr)")
        let byDefault = CommandRunner.shipcheck(
            ["sources", "--format", "json", app], environment: ["XDG_CACHE_HOME": "/dev/null"])
        #expect(byDefault.status == 1, "\(byDefault.stderr)")
        #expect(byDefault.stderr.contains("note"), "\(byDefault.stderr)")
    }

    /// A FIFO where the pack goes (hostile or a mistake) neither blocks the run nor is written
    /// into: one line naming it, exit 2 with `--cache-path`, and the findings still reported.
    @Test func aFIFOWhereThePackGoesIsAnInputError() throws {
        let scratch = TemporaryDirectory("shipcheck-cache-fifo")
        scratch.write("App/A.swift", "#Preview {\n    Text(\"A\")\n}\n")
        let cache = scratch.path + "/cache"
        CommandRunner.shipcheck(["sources", "--cache-path", cache, scratch.path + "/App"])
        let pack = try #require(try FileManager.default.contentsOfDirectory(atPath: cache).first)
        try FileManager.default.removeItem(atPath: cache + "/" + pack)
        #expect(SystemCalls.makeFIFO(cache + "/" + pack, 0o644) == 0)
        scratch.write("App/A.swift", "#Preview {\n    Text(\"B\")\n}\n")
        let result = CommandRunner.shipcheck([
            "sources", "--cache-path", cache, "--format", "json", scratch.path + "/App"
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.contains("preview-outside-debug"))
        #expect(result.stderr.contains("not a regular file (FIFO)"), "\(result.stderr)")
    }

    @Test func noCacheAndACachePathContradict() {
        let result = CommandRunner.shipcheck(["sources", "--no-cache", "--cache-path", "/tmp/x", app])
        #expect(result.status == 2)
        #expect(result.stderr.contains("contradict"), "\(result.stderr)")
    }

    /// A Run Script phase written for 0.1.0 passes `--cache FILE`: it is told what replaced it.
    @Test func theFormerCacheFileOptionSaysWhatReplacedIt() {
        let result = CommandRunner.shipcheck(["sources", "--cache", "/tmp/sources-cache.json", app])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--cache-path DIR"), "\(result.stderr)")
    }

    /// The JSON report without its per-check timings, which differ from run to run.
    private static func withoutTimings(_ json: String) -> String {
        json.split(separator: "\n").filter { !$0.contains("\"seconds\"") }.joined(separator: "\n")
    }
}
