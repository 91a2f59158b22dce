import Foundation
import ShipcheckTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes that must survive being killed: `shipcheck query add` and `shipcheck audit
/// --write-baseline` replace their file atomically (temporary file, fsync, rename; the store
/// under a lock too), so a SIGKILL at any moment leaves the old file or the new one, never a
/// torn or empty one; concurrent writers lose nothing.
@Suite struct HostileWriteTests {
    /// Kill moments are drawn from [0, 1.5 × an unkilled run's duration): before the write, in
    /// the middle of it and after it.
    static let killRounds = 40

    @Test func queryAddKilledAtRandomMomentsLeavesTheOldOrTheNewStore() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-kill-query")
        let environment = ["XDG_CONFIG_HOME": directory.path + "/home"]
        for index in 0..<20 {
            let seeded = HostileRunner.shipcheck(
                ["query", "add", "seed\(index)", "needle \(index)", "-d", String(repeating: "padding ", count: 40)],
                in: directory.path, environment: environment)
            #expect(seeded.exitStatus == 0, "\(seeded.stderr)")
        }
        let storePath = directory.path + "/.shipcheck/queries.yml"
        let began = Date()
        #expect(
            HostileRunner.shipcheck(["query", "add", "timed", "needle"], in: directory.path, environment: environment)
                .exitStatus == 0)
        let duration = Date().timeIntervalSince(began)

        var generator = SeededGenerator(seed: 0x4B49_4C4C)
        var names = try queryNames(in: directory.path, environment: environment)
        var killedMidway = 0, completed = 0
        for round in 0..<Self.killRounds {
            let before = try #require(FileManager.default.contents(atPath: storePath))
            let name = "round\(round)"
            let delay = Double.random(in: 0..<(duration * 1.5), using: &generator)
            let run = HostileRunner.shipcheck(
                ["query", "add", name, "pattern \(round)"], in: directory.path,
                killAfter: delay, environment: environment)
            #expect(!run.timedOut && (run.killedOnPurpose || run.exitStatus == 0), "round \(round): \(run.stderr)")
            let after = try #require(
                FileManager.default.contents(atPath: storePath), "round \(round): the store is gone")
            let now = try queryNames(in: directory.path, environment: environment)
            if after == before {
                #expect(now == names, "round \(round): same bytes, different queries")
            } else {
                #expect(
                    now == names + [name],
                    "round \(round): torn store: \(now.count) queries, expected \(names.count) or \(names.count + 1)")
                names = now
            }
            if run.killedOnPurpose { if after == before { killedMidway += 1 } } else { completed += 1 }
        }
        print(
            "hostile-kill query add: \(killedMidway) killed before the rename, \(completed) completed, \(Self.killRounds - killedMidway - completed) killed after it"
        )
        #expect(killedMidway > 0, "no kill landed before the write: the delays are too long")
    }

    /// Each round adds a finding, writes the expected baseline to a side file, then writes the
    /// real one and kills it at a random moment: the baseline is the previous round's bytes or
    /// this round's, never a mix, a prefix or an empty file.
    @Test func auditWriteBaselineKilledAtRandomMomentsLeavesTheOldOrTheNewBaseline() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-kill-baseline")
        let baseline = directory.path + "/baseline.json", expected = directory.path + "/expected.json"
        directory.write("Sources/Preview0.swift", "import SwiftUI\n#Preview { Text(\"0\") }\n")
        let began = Date()
        #expect(
            HostileRunner.shipcheck(["audit", "--write-baseline", baseline, "Sources"], in: directory.path).exitStatus
                == 0)
        let duration = Date().timeIntervalSince(began)

        var generator = SeededGenerator(seed: 0x4241_5345)
        var killedMidway = 0
        for round in 1...20 {
            let before = try #require(FileManager.default.contents(atPath: baseline))
            directory.write("Sources/Preview\(round).swift", "import SwiftUI\n#Preview { Text(\"\(round)\") }\n")
            let reference = HostileRunner.shipcheck(
                ["audit", "--write-baseline", expected, "Sources"], in: directory.path)
            #expect(reference.exitStatus == 0, "\(reference.stderr)")
            let new = try #require(FileManager.default.contents(atPath: expected))
            #expect(new != before)
            let delay = Double.random(in: 0..<(duration * 1.5), using: &generator)
            let run = HostileRunner.shipcheck(
                ["audit", "--write-baseline", baseline, "Sources"], in: directory.path, killAfter: delay)
            #expect(!run.timedOut && (run.killedOnPurpose || run.exitStatus == 0), "round \(round): \(run.stderr)")
            let after = try #require(
                FileManager.default.contents(atPath: baseline), "round \(round): the baseline is gone")
            #expect(
                after == before || after == new,
                "round \(round): torn baseline (\(after.count) bytes; old \(before.count), new \(new.count))")
            if after == before {
                killedMidway += 1
                // Catch up, so the next round starts from this round's findings.
                #expect(
                    HostileRunner.shipcheck(["audit", "--write-baseline", baseline, "Sources"], in: directory.path)
                        .exitStatus == 0)
            }
        }
        print("hostile-kill audit --write-baseline: \(killedMidway) of 20 killed before the rename")
        #expect(killedMidway > 0, "no kill landed before the write: the delays are too long")
    }

    /// Two processes adding 100 queries each at the same time: all 200 are in the store.
    @Test func twoProcessesAddingAHundredQueriesEachLoseNone() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-concurrent-query")
        let environment = ["XDG_CONFIG_HOME": directory.path + "/home"]
        let path = directory.path
        let failures = ManagedCounter()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in 0..<100 {
                let run = HostileRunner.shipcheck(
                    ["query", "add", "p\(worker)-\(index)", "needle\(index)"], in: path, environment: environment)
                if run.exitStatus != 0 { failures.increment() }
            }
        }
        #expect(failures.value == 0)
        let names = Set(try queryNames(in: path, environment: environment))
        for worker in 0..<2 {
            for index in 0..<100 { #expect(names.contains("p\(worker)-\(index)"), "lost p\(worker)-\(index)") }
        }
        #expect(names.count == 200)
    }

    /// The names in the repository store, in order, as `shipcheck query export` reads them: a
    /// store that does not parse fails the test.
    private func queryNames(in directory: String, environment: [String: String]) throws -> [String] {
        let export = HostileRunner.shipcheck(["query", "export"], in: directory, environment: environment)
        try #require(export.exitStatus == 0, "the store does not read back: \(export.stderr)")
        return export.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("  - name: ") ? String(line.dropFirst("  - name: ".count)) : nil
        }
    }
}

/// A counter shared by concurrent workers.
final class ManagedCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
