import Foundation
import ShipcheckTestSupport
import Testing

/// `shipcheck query` end to end: the real binary on real stores.
@Suite struct QueryCommandTests {
    let repo = GitFixture("shipcheck-query")
    let home = TemporaryDirectory("shipcheck-home")

    /// Runs shipcheck in the fixture with the personal store under `home`.
    @discardableResult
    func shipcheck(_ arguments: String..., input: String? = nil) -> CommandResult {
        CommandRunner.shipcheck(
            arguments, in: repo.path, environment: ["XDG_CONFIG_HOME": home.path + "/config", "HOME": home.path],
            input: input)
    }

    var repoStore: String? { repo.directory.read(".shipcheck/queries.yml") }
    var personalStore: String? { home.read("config/shipcheck/queries.yml") }

    @Test(arguments: [false, true])
    func everyCommandRoundTripsOnBothStores(personal: Bool) throws {
        let scope: [String] = personal ? ["--personal"] : []
        repo.write("Sources/A.swift", "// FIXME: first\nlet x = 1 // fixme\n")
        repo.commitAll("start")

        #expect(
            CommandRunner.shipcheck(
                ["query", "add", "fix", "FIXME", "-d", "Notes to fix", "-i"] + scope, in: repo.path,
                environment: ["XDG_CONFIG_HOME": home.path + "/config"]
            ).status == 0)
        let stored = try #require(personal ? personalStore : repoStore)
        #expect(
            stored.contains("name: fix") && stored.contains("description: 'Notes to fix'")
                && stored.contains("case-sensitive: false"))
        #expect((personal ? repoStore : personalStore) == nil)

        let list = shipcheck("query", "list")
        #expect(list.status == 0)
        let row = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("fix ") })
        #expect(
            row.contains(personal ? "personal" : "repo") && row.contains("literal") && row.contains("never")
                && row.contains("Notes to fix"))

        let show = shipcheck("query", "show", "fix")
        #expect(show.status == 0)
        #expect(show.stdout.contains("pattern: FIXME") && show.stdout.contains("last run: never"))

        let run = shipcheck("query", "run", "fix", "--heading")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Sources/A.swift\n    1:4  // FIXME: first\n    2:14  let x = 1 // fixme"))
        #expect(run.stdout.contains("first run"))
        let listed = shipcheck("query", "list").stdout
        #expect(listed.split(separator: "\n").first { $0.hasPrefix("fix ") }?.contains("  2  ") == true, "\(listed)")

        let edit = CommandRunner.shipcheck(
            ["query", "edit", "fix", "--rename", "fixes", "--description", "Renamed", "--case-sensitive"] + scope,
            in: repo.path, environment: ["XDG_CONFIG_HOME": home.path + "/config"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let edited = shipcheck("query", "show", "fixes").stdout
        #expect(
            edited.contains("description: Renamed") && !edited.contains("case-sensitive")
                && edited.contains("last run:"))
        #expect(shipcheck("query", "show", "fix").status == 2)
        #expect(
            shipcheck("query", "run", "fixes").stderr.contains(
                "fixes: 1 match in 1 file (1 searched); query changed since the last run"))

        let remove = CommandRunner.shipcheck(
            ["query", "remove", "fixes"] + scope, in: repo.path, environment: ["XDG_CONFIG_HOME": home.path + "/config"]
        )
        #expect(remove.status == 0)
        #expect(!(try #require(personal ? personalStore : repoStore)).contains("fixes"))
        #expect(shipcheck("query", "list").stdout.contains("No saved queries"))
    }

    @Test func exportFromPersonalAndImportIntoTheRepository() throws {
        shipcheck("query", "add", "--personal", "mine", "print(", "--include", "*.swift", "--include", "!Tests/**")
        shipcheck("query", "add", "--personal", "--preset", "fixme")
        let exported = shipcheck("query", "export", "--personal")
        #expect(exported.status == 0)
        let imported = shipcheck("query", "import", "-", input: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(repoStore == personalStore)
        // Importing again clashes: refused as a whole unless --replace.
        let clash = shipcheck("query", "import", "-", input: exported.stdout)
        #expect(clash.status == 2 && clash.stderr.contains("'mine', 'fixme'"))
        #expect(shipcheck("query", "import", "--replace", "-", input: exported.stdout).status == 0)
        // Export of one query to a file, then into an empty personal store elsewhere.
        #expect(shipcheck("query", "export", "--name", "mine", "one.yml").status == 0)
        let one = try #require(repo.directory.read("one.yml"))
        #expect(one.contains("name: mine") && !one.contains("fixme"))
    }

    @Test func corruptStoreIsNeverOverwritten() throws {
        let corrupt = "queries:\n  - name: ok\n    pattern: x\n    colour: red\n  - name: other\n    pattern: y\n"
        repo.write(".shipcheck/queries.yml", corrupt)
        let before = try Data(contentsOf: URL(fileURLWithPath: repo.path + "/.shipcheck/queries.yml"))
        for arguments in [
            ["query", "add", "new", "y"], ["query", "remove", "ok"], ["query", "edit", "ok", "-d", "x"],
            ["query", "list"], ["query", "run", "--all"]
        ] {
            let result = CommandRunner.shipcheck(
                arguments, in: repo.path, environment: ["XDG_CONFIG_HOME": home.path + "/config"])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(".shipcheck/queries.yml:4:"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: repo.path + "/.shipcheck/queries.yml")) == before)
    }

    @Test func invalidRegexIsAClearErrorAndSavesNothing() {
        let result = shipcheck("query", "add", "bad", "--regex", "(unclosed")
        #expect(result.status == 2)
        #expect(result.stderr.contains("invalid regular expression '(unclosed' in query 'bad'"))
        #expect(repoStore == nil)
    }

    @Test func duplicateNameAndBadNameAreRefused() {
        #expect(shipcheck("query", "add", "a", "x").status == 0)
        let duplicate = shipcheck("query", "add", "a", "y")
        #expect(duplicate.status == 2 && duplicate.stderr.contains("already exists"))
        #expect(shipcheck("query", "add", "bad name", "y").status == 2)
        #expect(repoStore?.contains("pattern: y") == false)
    }

    @Test func expectNoneQueryGatesTheRun() throws {
        repo.write("A.swift", "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n// TODO later\n")
        repo.git("add", "A.swift")
        #expect(shipcheck("query", "add", "--preset", "merge-conflicts").status == 0)
        #expect(shipcheck("query", "add", "--preset", "fixme").status == 0)
        #expect(shipcheck("query", "run", "fixme").status == 0)
        let failing = shipcheck("query", "run", "--all")
        #expect(failing.status == 1)
        #expect(
            failing.stderr.contains(
                "merge-conflicts: 2 matches in 1 file (1 searched); first run: nothing to compare with; FAILED: expected no matches"
            ))
        #expect(failing.stderr.contains("gate failed: merge-conflicts"))

        let json = shipcheck("query", "run", "merge-conflicts", "--format", "json")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 2, "opener and closer; the separator alone is also a Markdown underline")
        #expect(findings.allSatisfy { ($0["ruleID"] as? String) == "saved-query" })

        for format in ["sarif", "junit", "github", "gitlab"] {
            let result = shipcheck("query", "run", "merge-conflicts", "--format", format)
            #expect(result.status == 1, "\(format)")
            #expect(result.stdout.contains("saved-query") || result.stdout.contains("merge-conflicts"), "\(format)")
        }

        repo.write("A.swift", "resolved\n")
        let clean = shipcheck("query", "run", "merge-conflicts")
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty && clean.stderr.contains("0 new, 2 gone"))
    }

    @Test func refreshShowsNewAndGoneButNotLinesThatOnlyMoved() {
        repo.write("A.swift", "// FIXME a\n// FIXME b\n")
        repo.git("add", "A.swift")
        shipcheck("query", "add", "f", "FIXME")
        shipcheck("query", "run", "f")
        repo.write("A.swift", "import Foundation\n\n// FIXME b\n// FIXME c\n")
        let second = shipcheck("query", "run", "f", "--heading")
        #expect(second.stdout.contains("1 new, 1 gone"))
        #expect(second.stdout.contains("new  A.swift:4  // FIXME c"))
        #expect(second.stdout.contains("gone A.swift:1  // FIXME a"))
        #expect(!second.stdout.contains("FIXME b\n    new"))
        #expect(shipcheck("query", "run", "f").stderr.contains("f: 2 matches in 1 file (1 searched); since last run ("))
        #expect(shipcheck("query", "run", "f").stderr.contains("): no change"))
    }

    @Test func timeoutStopsAPathologicalRegexAndNamesTheFile() {
        repo.write("Slow.txt", String(repeating: "a", count: 40) + "b\n")
        repo.git("add", "Slow.txt")
        #expect(shipcheck("query", "add", "slow", "--regex", "(a+)+$").status == 0)
        let result = shipcheck("query", "run", "slow", "--timeout", "0.5")
        #expect(result.status == 2)
        #expect(result.stderr.contains("Slow.txt: error: query 'slow': search cut short"))
        // An incomplete run is no baseline: no state was written.
        #expect(shipcheck("query", "list").stdout.contains("never"))
    }

    @Test func everyPresetCanBeAddedAndRun() {
        repo.write("A.swift", "print(\"x\")\nlet a = try! f()\n")
        repo.git("add", "A.swift")
        for preset in ["merge-conflicts", "fixme", "print-debugging", "force-try", "focused-tests"] {
            #expect(shipcheck("query", "add", "--preset", preset).status == 0, "\(preset)")
        }
        #expect(shipcheck("query", "add", "--preset", "nope").status == 2)
        let run = shipcheck("query", "run", "print-debugging", "force-try")
        #expect(
            run.stdout == "print-debugging:A.swift:1:1:print(\"x\")\nforce-try:A.swift:2:9:let a = try! f()\n",
            "\(run.stdout)")
    }

    @Test func theStreamedTextReportKeepsListingOrderPerQuery() throws {
        // More files than the scan keeps in flight (64), written in shuffled order.
        for index in 0..<300 {
            repo.write(
                "Sources/F\(String(format: "%03d", (index * 37) % 300)).swift", "// TODO \(index)\nlet x = 1 // TODO\n")
        }
        repo.commitAll("files")
        shipcheck("query", "add", "todo", "TODO")
        shipcheck("query", "add", "let", "let x")
        let run = shipcheck("query", "run", "todo", "let", "--heading")
        #expect(run.status == 0, "\(run.stderr)")
        let files = (0..<300).map { "  Sources/F\(String(format: "%03d", $0)).swift" }
        let listed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  Sources/") }.map(String.init)
        #expect(listed == files + files, "each query's section lists its files in order, the first query's first")
        #expect(run.stdout.contains("600 matches in 300 files (300 searched)"))
        #expect(run.stdout.contains("300 matches in 300 files (300 searched)"))
        #expect(run.stdout.hasSuffix("shipcheck: 2 queries run, 900 matches\n"))

        // Piped without --heading: one search-result line per match, each starting with its
        // query's name (two queries run), streamed in the same order (both of a file's TODOs,
        // then the next file), the counts on standard error.
        let piped = shipcheck("query", "run", "todo", "let")
        #expect(piped.status == 0, "\(piped.stderr)")
        let paths = piped.stdout.split(separator: "\n").map { "  " + $0.split(separator: ":")[1] }
        #expect(paths == files.flatMap { [$0, $0] } + files)
        #expect(
            piped.stdout.hasPrefix(
                "todo:Sources/F000.swift:1:4:// TODO 0\ntodo:Sources/F000.swift:2:14:let x = 1 // TODO\n"),
            "\(piped.stdout.prefix(200))")
        #expect(piped.stdout.hasSuffix("let:Sources/F299.swift:2:1:let x = 1 // TODO\n"), "\(piped.stdout.suffix(200))")
        #expect(
            piped.stderr.contains("todo: 600 matches in 300 files (300 searched); since last run"), "\(piped.stderr)")
        #expect(piped.stderr.contains("shipcheck: 2 queries run, 900 matches"))

        // The grouped report into a file, which only appears when the run is over.
        let output = repo.path + "/report.txt"
        #expect(shipcheck("query", "run", "todo", "let", "--heading", "--output", output).status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.split(separator: "\n").filter { $0.hasPrefix("  Sources/") }.map(String.init) == files + files)
        #expect(written.contains("since last run") && written.contains("no change"))
    }

    /// A file a query searched without a match still counts as searched, for the queries
    /// whose globs cover it only.
    @Test func filesWithoutMatchesCountAsSearchedByTheQueriesCoveringThem() {
        for index in 0..<90 {
            repo.write("Sources/S\(index).swift", index % 10 == 0 ? "// TODO \(index)\n" : "let x = \(index)\n")
        }
        for index in 0..<30 {
            repo.write("Tests/T\(index).swift", index == 7 ? "// TODO test\n" : "let y = \(index)\n")
        }
        repo.commitAll("files")
        shipcheck("query", "add", "todo", "TODO")
        shipcheck("query", "add", "test-todo", "TODO", "--include", "Tests/**")
        let alone = shipcheck("query", "run", "todo")
        #expect(alone.stderr.contains("todo: 10 matches in 10 files (120 searched)"), "\(alone.stderr)")
        let both = shipcheck("query", "run", "todo", "test-todo")
        #expect(both.stderr.contains("todo: 10 matches in 10 files (120 searched)"), "\(both.stderr)")
        #expect(both.stderr.contains("test-todo: 1 match in 1 file (30 searched)"), "\(both.stderr)")
    }

    @Test func runNeedsNamesOrAll() {
        #expect(shipcheck("query", "run").status == 2)
        #expect(shipcheck("query", "run", "missing").stderr.contains("no query named 'missing'"))
    }

    /// In a git work tree `query run` searches what the user sees in the project, as ripgrep
    /// and Xcode's Find navigator do: the files git tracks (their work-tree contents) and the
    /// untracked files that are not ignored; `--tracked` restricts it to the index's files, as
    /// `git grep`.
    @Test func untrackedFilesAreSearchedUnlessTrackedIsGiven() {
        repo.writeTrackedUntrackedAndIgnored(
            tracked: ["Tracked.swift": "// needle tracked\n"], untracked: ["Untracked.swift": "// needle untracked\n"],
            ignored: ["Ignored.swift": "// needle ignored\n"])
        repo.write("Tracked.swift", "// needle tracked, edited\n// needle again\n")
        shipcheck("query", "add", "n", "needle")

        let all = shipcheck("query", "run", "n", "--no-heading")
        #expect(all.status == 0, "\(all.stderr)")
        #expect(
            all.stdout.split(separator: "\n").sorted() == [
                "Tracked.swift:1:4:// needle tracked, edited", "Tracked.swift:2:4:// needle again",
                "Untracked.swift:1:4:// needle untracked"
            ], "\(all.stdout)")
        #expect(
            shipcheck("query", "run", "n", "--untracked").stdout == all.stdout,
            "--untracked, the default, is still accepted")

        let tracked = shipcheck("query", "run", "n", "--no-heading", "--tracked")
        #expect(tracked.status == 0, "\(tracked.stderr)")
        #expect(
            tracked.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["Tracked.swift", "Tracked.swift"],
            "the work tree's contents of tracked files: \(tracked.stdout)")
        #expect(shipcheck("query", "run", "n", "--tracked", "--untracked").status == 2)
        let help = shipcheck("query", "run", "--help").stdout
        #expect(help.contains("--tracked") && help.contains("untracked files"), "\(help)")
    }

    /// "What is new since the last run" includes the newest code: a match in a file written
    /// since, which git does not track yet, is new; deleting the file makes it gone.
    @Test func aMatchInANewUntrackedFileIsNew() {
        repo.write("Old.swift", "// TODO: old\n")
        repo.commitAll("old")
        shipcheck("query", "add", "todo", "TODO")
        #expect(shipcheck("query", "run", "todo").stderr.contains("first run"))
        repo.write("Sources/NewFile.swift", "let x = 1\n// TODO: wire this up\n")
        let run = shipcheck("query", "run", "todo", "--heading")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("2 matches in 2 files (2 searched)"), "\(run.stdout)")
        #expect(run.stdout.contains("1 new, 0 gone"), "\(run.stdout)")
        #expect(run.stdout.contains("new  Sources/NewFile.swift:2  // TODO: wire this up"), "\(run.stdout)")
        let piped = shipcheck("query", "run", "todo", "--format", "json")
        #expect(piped.stdout.contains("Sources/NewFile.swift"), "the other formats search it too")
        try? FileManager.default.removeItem(atPath: repo.path + "/Sources/NewFile.swift")
        let after = shipcheck("query", "run", "todo", "--heading")
        #expect(
            after.stdout.contains("0 new, 1 gone")
                && after.stdout.contains("gone Sources/NewFile.swift:2  // TODO: wire this up"), "\(after.stdout)")
    }
}
