import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

@Suite struct QueryRunnerTests {
    func run(_ queries: [SavedQuery], in directory: TemporaryDirectory, timeout: Double? = nil) -> (
        results: [QueryRunResult], inputErrors: [InputError], filesScanned: Int
    ) {
        let scoped = queries.map {
            ScopedQuery(query: $0, scope: .repository, storePath: directory.path + "/.shipcheck/queries.yml")
        }
        return QueryRunner(root: directory.path, configuration: Configuration(), timeout: timeout).run(scoped)
    }

    /// The last run's time as `query run`, `query list` and `query show` print it: UTC, to the
    /// minute (never rounded up), and a damaged state's impossible time said as such.
    @Test func lastRunTimesAreUTCMinutes() {
        #expect(QueryRunText.timestamp(0) == "1970-01-01 00:00 UTC")
        #expect(QueryRunText.timestamp(1_795_467_745.9) == "2026-11-23 21:02 UTC")
        #expect(QueryRunText.timestamp(951_782_459.99) == "2000-02-29 00:00 UTC")
        for damaged in [1e300, -1, .nan, .infinity] { #expect(QueryRunText.timestamp(damaged) == "an unreadable time") }
    }

    @Test func includeAndExcludeGlobsWithNegation() {
        let directory = TemporaryDirectory()
        for path in [
            "Sources/A.swift", "Sources/Generated/B.swift", "Sources/Generated/Keep.swift", "Tests/C.swift", "README.md"
        ] {
            directory.write(path, "FIXME\n")
        }
        let query = SavedQuery(
            name: "q", pattern: "FIXME", include: ["Sources/**", "*.md", "!README.md"],
            exclude: ["Sources/Generated", "!Sources/Generated/Keep.swift"])
        let outcome = run([query], in: directory)
        #expect(outcome.results[0].files.map(\.path) == ["Sources/A.swift", "Sources/Generated/Keep.swift"])
        #expect(outcome.inputErrors.isEmpty)
    }

    @Test func theStoreAndStateNeverMatchThemselves() {
        let directory = TemporaryDirectory()
        directory.write(".shipcheck/queries.yml", "queries:\n  - name: q\n    pattern: FIXME\n")
        directory.write(".shipcheck/state/queries/repo/q.state", "FIXME")
        directory.write("A.swift", "// FIXME\n")
        #expect(
            run([SavedQuery(name: "q", pattern: "FIXME")], in: directory).results[0].files.map(\.path) == ["A.swift"])
    }

    @Test func binaryFilesAreSkippedAndUnreadableOnesReported() {
        let directory = TemporaryDirectory()
        directory.write("blob.bin", bytes: Array("FIXME\0binary".utf8))
        directory.write("A.swift", "FIXME\n")
        SystemCalls.makeFIFO(directory.path + "/pipe", 0o644)
        let outcome = run([SavedQuery(name: "q", pattern: "FIXME")], in: directory)
        #expect(outcome.results[0].files.map(\.path) == ["A.swift"])
        #expect(outcome.inputErrors.map(\.path) == ["pipe"])
    }

    @Test func everyFileIsReadOnceForAllQueries() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "alpha beta\n")
        directory.write("B.swift", "beta\n")
        let outcome = run(
            [SavedQuery(name: "a", pattern: "alpha"), SavedQuery(name: "b", pattern: "beta")], in: directory)
        #expect(outcome.filesScanned == 2)
        #expect(outcome.results.map(\.matchCount) == [1, 2])
    }

    @Test func timeoutReportsWhichFileWasCutShort() {
        let directory = TemporaryDirectory()
        directory.write("Slow.txt", String(repeating: "a", count: 40) + "b\n")
        let outcome = run([SavedQuery(name: "slow", pattern: "(a+)+$", kind: .regex)], in: directory, timeout: 0.3)
        #expect(outcome.results[0].cutShort == ["Slow.txt"])
        #expect(!outcome.results[0].isComplete)
        #expect(
            outcome.inputErrors.contains {
                $0.path == "Slow.txt" && $0.message.contains("cut short") && $0.message.contains("slow")
            })
    }

    @Test func invalidRegexIsAnInputErrorAndOtherQueriesStillRun() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "x\n")
        let outcome = run(
            [SavedQuery(name: "bad", pattern: "(", kind: .regex), SavedQuery(name: "ok", pattern: "x")], in: directory)
        #expect(outcome.results.map(\.query.query.name) == ["ok"])
        #expect(outcome.inputErrors.count == 1)
        #expect(outcome.inputErrors.first?.message.contains("invalid regular expression '('") == true)
    }
}

/// Queries run together (one read per file, the combined prefilter ruling queries out) find
/// exactly what each finds run alone (no prefilter over one query).
@Suite struct CombinedPrefilterTests {
    let sets: [[SavedQuery]] = [
        [
            SavedQuery(name: "fixme", pattern: "FIXME"), SavedQuery(name: "reload", pattern: "reload"),
            SavedQuery(name: "async", pattern: #"func test[A-Z]\w*Async\("#, kind: .regex)
        ],
        [
            SavedQuery(name: "digits", pattern: #"\b[0-9]{5}\b"#, kind: .regex),
            SavedQuery(name: "todo", pattern: "todo", caseSensitive: false),
            SavedQuery(name: "word", pattern: "cache", wholeWord: true),
            SavedQuery(name: "alt", pattern: #"alpha|Beta\d"#, kind: .regex, caseSensitive: false)
        ],
        [
            SavedQuery(name: "one", pattern: "x"), SavedQuery(name: "accent", pattern: "café"),
            SavedQuery(name: "folded", pattern: "ÉCOLE", caseSensitive: false),
            SavedQuery(name: "reload-i", pattern: "RELOAD", caseSensitive: false),
            SavedQuery(name: "brackets", pattern: "[Int: String]")
        ]
    ]

    @Test func queriesRunTogetherFindWhatEachFindsAlone() {
        let directory = TemporaryDirectory()
        let lines = [
            "// FIXME: later", "func reload() {}", "func testLoadAsync() {}", "let id = 12345", "// TODO later",
            "Todo: x",
            "let cache = cacheMap", "alpha", "BETA7", "café école", "École", "[Int: String]", "RELOAD", "nothing"
        ]
        for file in 0..<40 {
            let text = (0..<(file % 7 + 1)).map { lines[(file * 5 + $0 * 3) % lines.count] }.joined(separator: "\n")
            directory.write("F\(file).swift", text + "\n")
        }
        for set in sets {
            let together = run(set, in: directory).results
            #expect(together.count == set.count)
            for (query, result) in zip(set, together) {
                let alone = run([query], in: directory).results[0]
                #expect(result.files == alone.files, "\(query.name)")
                #expect(result.filesSearched == alone.filesSearched, "\(query.name)")
                #expect(!alone.files.isEmpty, "\(query.name) finds something")
            }
        }
    }

    func run(_ queries: [SavedQuery], in directory: TemporaryDirectory) -> (
        results: [QueryRunResult], inputErrors: [InputError], filesScanned: Int
    ) {
        QueryRunnerTests().run(queries, in: directory)
    }
}
