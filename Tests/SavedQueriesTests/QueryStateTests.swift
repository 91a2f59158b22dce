import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

/// The last-run state a `query run` compares with (a manifest and its segments): what is new
/// and gone file by file, files unchanged since the previous run taken as they were, the
/// state rewritten only where files changed, and a damaged state costing only the comparison.
@Suite struct QueryStateTests {
    let directory = TemporaryDirectory()
    let reports = TemporaryDirectory()
    let query = SavedQuery(name: "fixme", pattern: "FIXME")
    var manifest: String { directory.path + "/.shipcheck/state/queries/repo/fixme.state" }

    /// A `query run` of `query` as the command does it: streamed to a text report (where an
    /// unchanged file is not fingerprinted), or with the findings kept (other formats).
    func run(_ query: SavedQuery? = nil, streamed: Bool = true, timeout: Double? = nil) throws -> QueryRefresh {
        let scoped = ScopedQuery(query: query ?? self.query, scope: .repository, storePath: "q.yml")
        let output = try AtomicFile.Writer(path: reports.path + "/report.txt")
        let outcome = Frontend.runQueries(
            [scoped], root: directory.path, configuration: Configuration(), timeout: timeout, failingSeverity: .error,
            text: streamed ? (output.output, false, true) : nil)
        return outcome.refreshes[0]
    }

    /// The segment files: name, size and modification time.
    func segments() throws -> [String: String] {
        let folder = manifest + ".d"
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let key = try #require(SystemCalls.fileKey(of: folder + "/" + name))
            found[name] = "\(key.size) \(key.modified)"
        }
        return found
    }

    func manifestHeader() throws -> StateFileFormat.Header {
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        return try #require(StateFileFormat.decodeHeader(Array(text.split(separator: "\n")[0].utf8)))
    }

    /// Rewrites the manifest's header and file lines (as a concurrent writer, a clock or a disk
    /// could leave them).
    func editManifest(_ edit: (inout StateFileFormat.Header, inout [StateFileFormat.FileBlock]) -> Void) throws {
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n")
        var header = try #require(StateFileFormat.decodeHeader(Array(lines[0].utf8)))
        var blocks = try lines.dropFirst().map { line in
            try #require(Array(line.utf8).withByteView { StateFileFormat.decodeBlock($0) })
        }
        edit(&header, &blocks)
        var bytes = try #require(StateFileFormat.encode(header))
        for block in blocks { StateFileFormat.encode(block, into: &bytes) }
        try Data(bytes).write(to: URL(fileURLWithPath: manifest))
    }

    func key(of relative: String) -> FileKey {
        SystemCalls.fileKey(of: directory.path + "/" + relative)!
    }

    @Test(arguments: [true, false])
    func newAndGoneFileByFile(streamed: Bool) throws {
        directory.write("A.swift", "// FIXME one\nlet x = 1\n// FIXME two\n")
        directory.write("B.swift", "// FIXME b\n")
        directory.write("C.swift", "// FIXME c\n")
        directory.write("D.swift", "// FIXME d\n")
        directory.write("E.swift", "// FIXME e\n")
        directory.write("F.swift", "nothing\n")
        _ = try run(streamed: streamed)

        let unchanged = try run(streamed: streamed)
        #expect(unchanged.comparable && unchanged.new.isEmpty && unchanged.gone.isEmpty)

        // A: a line inserted above a match (not new), one match removed, one added.
        directory.write("A.swift", "import Foundation\n// FIXME one\nlet x = 1\n// FIXME three\n")
        try FileManager.default.removeItem(atPath: directory.path + "/B.swift")  // deleted
        try FileManager.default.moveItem(atPath: directory.path + "/C.swift", toPath: directory.path + "/Renamed.swift")
        directory.write("D.swift", "// fixed d\n")  // stops matching
        directory.write("F.swift", "// FIXME f\n")  // starts matching
        let second = try run(streamed: streamed)
        #expect(second.comparable)
        #expect(
            second.new.map { "\($0.location.path):\($0.location.line ?? 0) \($0.snippet ?? "")" }.sorted()
                == ["A.swift:4 // FIXME three", "F.swift:1 // FIXME f", "Renamed.swift:1 // FIXME c"])
        #expect(
            second.gone.map { "\($0.path):\($0.line) \($0.lineText)" } == [
                "A.swift:3 // FIXME two", "B.swift:1 // FIXME b", "C.swift:1 // FIXME c", "D.swift:1 // FIXME d"
            ])
        #expect(second.matchCount == 5)

        let again = try run(streamed: streamed)
        #expect(again.comparable && again.new.isEmpty && again.gone.isEmpty && again.matchCount == 5)
    }

    @Test func awkwardPathsAndLinesComeBackAsTheyWere() throws {
        directory.write("dir with space/tab\there.swift", "a\tb \\ c\\t FIXME\n")
        directory.write("ünï.swift", "FIXME é\r\n")
        _ = try run()
        try FileManager.default.removeItem(atPath: directory.path + "/dir with space")
        try FileManager.default.removeItem(atPath: directory.path + "/ünï.swift")
        let gone = try run().gone
        #expect(gone.map(\.path) == ["dir with space/tab\there.swift", "ünï.swift"])
        #expect(gone.map(\.lineText) == ["a\tb \\ c\\t FIXME", "FIXME é"])
        #expect(gone.map(\.line) == [1, 1])
    }

    @Test func aRunOfAnUnchangedTreeWritesNoSegment() throws {
        for index in 0..<5 { directory.write("F\(index).swift", "// FIXME \(index)\n") }
        _ = try run()
        let before = try segments()
        #expect(before.count == 1)
        for _ in 0..<2 {
            let again = try run()
            #expect(again.comparable && again.new.isEmpty && again.gone.isEmpty)
            #expect(try segments() == before)
        }
        // Once the previous run started over a second after the files were written, they are
        // not re-read at all: still no segment, no change.
        try editManifest { header, _ in header.ranAt += 10 }
        #expect(try run().new.isEmpty)
        #expect(try segments() == before)
    }

    /// A run where nothing changed writes the manifest's lines as they were; a file only touched
    /// (same bytes, a new modification time) keeps its block but gets its new key, so the run
    /// after trusts it.
    @Test func aTouchedFileKeepsItsBlockWithItsNewKey() throws {
        let touched = directory.write("A.swift", "// FIXME one\n")
        directory.write("B.swift", "// FIXME two\n")
        let old = 1_600_000_000
        #expect(SystemCalls.setTimes(of: touched, seconds: old))
        _ = try run()
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(try run().new.isEmpty)
        #expect(try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").dropFirst() == lines)

        let now = 1_700_000_000
        #expect(SystemCalls.setTimes(of: touched, seconds: now))
        #expect(try run().new.isEmpty)
        var blocks: [StateFileFormat.FileBlock] = []
        try editManifest { _, read in blocks = read }
        #expect(blocks.map(\.path) == ["A.swift", "B.swift"])
        #expect(blocks.map(\.key) == [key(of: "A.swift"), key(of: "B.swift")])
        let modified = try #require(blocks.first?.key?.modified)
        #expect(modified == 1_700_000_000_000_000_000)
    }

    @Test func anEditThatKeepsSizeAndModificationTimeIsStillSeen() throws {
        let file = directory.write("A.swift", "// FIXME one\n")
        let old = 1_600_000_000
        #expect(SystemCalls.setTimes(of: file, seconds: old))
        _ = try run()
        // Nothing racy: the previous run is taken to have started well after every write.
        try editManifest { header, _ in header.ranAt = Date().timeIntervalSince1970 + 3600 }
        #expect(try run().new.isEmpty)

        try editManifest { header, _ in header.ranAt = Date().timeIntervalSince1970 + 3600 }
        directory.write("A.swift", "// FIXME two\n")
        #expect(SystemCalls.setTimes(of: file, seconds: old))
        let edited = try run()
        #expect(edited.new.map(\.snippet) == ["// FIXME two"])
        #expect(edited.gone.map(\.lineText) == ["// FIXME one"])
    }

    /// Timestamps no clock gives — a file touched past the year 2262, a damaged header's start
    /// time — end in a run that compares (such a key is never trusted), never in a trap.
    @Test func outOfRangeTimesAreComparedNotTrusted() throws {
        let file = directory.write("A.swift", "// FIXME one\n")
        let future = 10_500_000_000
        #expect(SystemCalls.setTimes(of: file, seconds: future))
        _ = try run()
        let again = try run()
        #expect(again.new.isEmpty && again.gone.isEmpty && again.comparable)

        for ranAt in [1e300, -1e300] {
            try editManifest { header, _ in header.ranAt = ranAt }
            directory.write("A.swift", "// FIXME two\n")
            let edited = try run()
            #expect(edited.new.map(\.snippet) == ["// FIXME two"], "ranAt \(ranAt)")
            #expect(edited.gone.map(\.lineText) == ["// FIXME one"], "ranAt \(ranAt)")
            directory.write("A.swift", "// FIXME one\n")
            _ = try run()
        }
    }

    /// A write in the same clock tick as the previous run's read can leave the key as it was:
    /// a key that recent is not trusted.
    @Test func aRacyEditIsFingerprintedAgain() throws {
        directory.write("A.swift", "// FIXME one\n")
        _ = try run()
        directory.write("A.swift", "// FIXME two\n")
        let current = key(of: "A.swift")
        // The previous run read A.swift as it is now (same key), less than a second after the write.
        try editManifest { header, blocks in
            blocks[0].key = current
            header.ranAt = Double(current.modified) / 1e9 + 0.5
        }
        let racy = try run()
        #expect(racy.new.map(\.snippet) == ["// FIXME two"])
        #expect(racy.gone.map(\.lineText) == ["// FIXME one"])

        // The same key recorded by a run that started long after the write: taken as unchanged.
        directory.write("A.swift", "// FIXME six\n")
        let later = key(of: "A.swift")
        try editManifest { header, blocks in
            blocks[0].key = later
            header.ranAt = Double(later.modified) / 1e9 + 5
        }
        #expect(try run().new.isEmpty)
    }

    @Test func segmentsStayFewAfterManyEditedRuns() throws {
        for index in 0..<12 { directory.write("F\(index).swift", "// FIXME \(index)\n") }
        _ = try run()
        for round in 0..<14 {
            directory.write("F\(round % 12).swift", "// FIXME \(round % 12) edit \(round)\n")
            let run = try run()
            #expect(run.new.count == 1 && run.gone.count == 1, "round \(round)")
            #expect(try segments().count <= StateWriter.maximumSegments + 1, "round \(round)")
        }
        let header = try manifestHeader()
        #expect(Set(try segments().keys) == Set(header.segments ?? []))
        #expect(try run().new.isEmpty)
    }

    /// Each way a state can be damaged: the run completes, says the previous state could not
    /// be read, and writes one the next run compares with.
    @Test(arguments: [
        "garbage line", "missing line", "missing segment", "truncated segment", "block outside", "huge counts",
        "no header"
    ])
    func aDamagedStateOnlyCostsTheComparison(damage: String) throws {
        directory.write("A.swift", "// FIXME a\n// FIXME a2\n")
        directory.write("B.swift", "// FIXME b\n")
        _ = try run()
        let segment = manifest + ".d/" + (try manifestHeader().segments?.first ?? "")
        switch damage {
        case "garbage line":
            var text = try String(contentsOfFile: manifest, encoding: .utf8)
            text += "0\tx\t1\n"
            try text.write(toFile: manifest, atomically: false, encoding: .utf8)
        case "missing line":
            try editManifest { _, blocks in blocks.removeLast() }
        case "missing segment":
            try FileManager.default.removeItem(atPath: segment)
        case "truncated segment":
            #expect(SystemCalls.truncateFile(segment, to: 10) == 0)
        case "block outside":
            try editManifest { _, blocks in blocks[0].offset = 1 << 40 }
        case "huge counts":  // their sum would overflow
            try editManifest { header, blocks in
                for index in blocks.indices { blocks[index].matchCount = Int.max / 2 + 1 }
                header.matchCount = 0
            }
        default:
            try "not a state file".write(toFile: manifest, atomically: false, encoding: .utf8)
        }
        directory.write("B.swift", "// FIXME b\n// FIXME new\n")
        let damaged = try run()
        #expect(damaged.previousProblem != nil)
        #expect(!damaged.comparable && damaged.new.isEmpty && damaged.gone.isEmpty)
        #expect(damaged.matchCount == 4)
        #expect(QueryRunText.comparison(damaged).hasPrefix("the previous run's state could not be read"))

        directory.write("B.swift", "// FIXME b\n")
        let repaired = try run()
        #expect(repaired.comparable && repaired.new.isEmpty)
        #expect(repaired.gone.map(\.lineText) == ["// FIXME new"])
    }

    /// A format 1 state (the header, then every entry line in the one file) larger than the
    /// chunks it is read in still compares, and is replaced by a format 2 one.
    @Test func aLargeFormatOneStateStillCompares() throws {
        for file in 0..<4 {
            directory.write("F\(file).swift", (0..<5000).map { "// FIXME \(file) \($0)\n" }.joined())
        }
        _ = try run()
        var header = try manifestHeader()
        var old = try #require(
            StateFileFormat.encode(
                StateFileFormat.Header(name: header.name, signature: header.signature, ranAt: header.ranAt)))
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").dropFirst()
        for line in lines {
            let block = try #require(Array(line.utf8).withByteView { StateFileFormat.decodeBlock($0) })
            let segment = try #require(
                FileHandle(forReadingAtPath: manifest + ".d/" + (header.segments ?? [])[block.segment]))
            try segment.seek(toOffset: UInt64(block.offset))
            old += try #require(try segment.read(upToCount: block.length))
        }
        #expect(old.count > 1024 * 1024)
        try FileManager.default.removeItem(atPath: manifest + ".d")
        try Data(old).write(to: URL(fileURLWithPath: manifest))

        directory.write("F2.swift", (0..<5000).map { "// FIXME 2 \($0)\n" }.joined() + "// FIXME new\n")
        let migrated = try run()
        #expect(migrated.comparable && migrated.previousProblem == nil)
        #expect(migrated.new.map(\.snippet) == ["// FIXME new"] && migrated.gone.isEmpty)
        header = try manifestHeader()
        #expect(header.format == 2 && header.matchCount == 20001)
    }

    /// Cut short without a clock race: a timeout of zero has passed before the first file, and
    /// the regex engine's backtracking limit stops a search after a fixed number of steps.
    @Test(arguments: [0.0, nil] as [Double?])
    func aRunCutShortLeavesTheStateExactlyAsItWas(timeout: Double?) throws {
        let slow = SavedQuery(name: "fixme", pattern: "FIXME|(a+)+$", kind: .regex)
        directory.write("A.txt", "FIXME\n")
        _ = try run(slow)
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: manifest))
        let segmentsBefore = try segments()
        directory.write("A.txt", "FIXME\nFIXME\n")
        if timeout == nil { directory.write("Slow.txt", String(repeating: "a", count: 40) + "b\n") }
        #expect(try segments().count == 1)
        let cut = try run(slow, timeout: timeout)
        #expect(!cut.result.isComplete)
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifest)) == manifestBefore)
        #expect(try segments() == segmentsBefore)
    }

    @Test func renameAndRemoveTakeTheSegmentsAlong() throws {
        directory.write("A.swift", "// FIXME a\n")
        _ = try run()
        let segmentNames = Set(try segments().keys)
        var renamed = query
        renamed.name = "todo"
        QueryState.move(root: directory.path, from: query, to: renamed, scope: .repository)
        let moved = QueryState.path(root: directory.path, query: renamed, scope: .repository)
        #expect(
            !FileManager.default.fileExists(atPath: manifest)
                && !FileManager.default.fileExists(atPath: manifest + ".d"))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: moved + ".d")) == segmentNames)
        let afterRename = try run(renamed)
        #expect(afterRename.previous != nil && afterRename.previousProblem == nil)
        #expect(QueryState.load(root: directory.path, query: renamed, scope: .repository)?.matchCount == 1)

        QueryState.move(root: directory.path, from: renamed, to: nil, scope: .repository)
        #expect(!FileManager.default.fileExists(atPath: moved) && !FileManager.default.fileExists(atPath: moved + ".d"))
        #expect(QueryState.load(root: directory.path, query: renamed, scope: .repository) == nil)
    }

    /// Runs of one query at once, the tree changing under them: whichever commits last, its
    /// manifest names only segments that are there.
    @Test func concurrentRunsNeverLeaveAManifestNamingADeletedSegment() throws {
        for index in 0..<12 { directory.write("F\(index).swift", "// FIXME \(index)\n") }
        _ = try run()
        let scoped = ScopedQuery(query: query, scope: .repository, storePath: "q.yml")
        let root = directory.path
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for round in 0..<6 {
                let file = worker * 4 + round % 4
                try? "// FIXME \(file) by \(worker) in \(round)\n".write(
                    toFile: "\(root)/F\(file).swift", atomically: false, encoding: .utf8)
                _ = Frontend.runQueries(
                    [scoped], root: root, configuration: Configuration(), timeout: nil, failingSeverity: .error)
            }
        }
        guard case .loaded(let state) = PreviousState.load(manifest: manifest) else {
            Issue.record("the state after concurrent runs cannot be read")
            return
        }
        #expect(state.matchCount == 12)
        #expect(Set(try segments().keys) == Set(state.segmentNames))
        let after = try run()
        #expect(after.comparable && after.new.isEmpty && after.gone.isEmpty)
    }
}
