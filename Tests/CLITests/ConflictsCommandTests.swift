import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

/// `shipcheck conflicts` as a user or CI job runs it: the real binary, exit codes, formats.
@Suite struct ConflictsCommandTests {
    private let block = "let a = 1\n<<<<<<< HEAD\nlet b = 2\n=======\nlet b = 3\n>>>>>>> feature\n"

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func cleanTreeExitsZero() {
        let fixture = GitFixture("shipcheck-cli-clean")
        fixture.write("README.md", "Title\n=======\n")
        fixture.commitAll("clean")
        let result = CommandRunner.shipcheck(["conflicts"], in: fixture.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.contains("0 errors"))
    }

    @Test func conflictBlockExitsOneWithACompilerStyleLine() {
        let fixture = GitFixture("shipcheck-cli-block")
        fixture.write("Sources/App.swift", block)
        fixture.git("add", "Sources/App.swift")
        let result = CommandRunner.shipcheck(["conflicts"], in: fixture.path)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Sources/App.swift:2:1: error: unresolved merge conflict between 'HEAD' and 'feature' (lines 2–6) [conflict-marker]"
            ))
    }

    @Test func jsonReportCarriesTheBlockRange() throws {
        let fixture = GitFixture("shipcheck-cli-json")
        fixture.write("a.swift", block + "\n>>>>>>> leftover\n")
        fixture.git("add", "a.swift")
        let result = CommandRunner.shipcheck(["conflicts", "--format", "json"], in: fixture.path)
        #expect(result.status == 1)
        let findings = try #require(try json(result.stdout)["findings"] as? [[String: Any]])
        #expect(findings.map { $0["ruleID"] as? String } == ["conflict-marker", "conflict-marker-remnant"])
        #expect(findings.first?["line"] as? Int == 2)
        #expect(findings.first?["endLine"] as? Int == 6)
        #expect(findings.last?["line"] as? Int == 8)
    }

    @Test func sarifListsEveryConflictRule() throws {
        let fixture = GitFixture("shipcheck-cli-sarif")
        fixture.write("a.swift", block)
        fixture.git("add", "a.swift")
        let result = CommandRunner.shipcheck(["conflicts", "-f", "sarif"], in: fixture.path)
        #expect(result.status == 1)
        let runs = try #require(try json(result.stdout)["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ids = (driver["rules"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(
            Set(ids).isSuperset(of: ["conflict-marker", "conflict-marker-remnant", "unmerged-path", "merge-in-progress"]
            ))
        #expect((runs.first?["results"] as? [Any])?.count == 1)
    }

    /// git is started from PATH: without one, the work tree is walked, and what needs git's
    /// index is one error line and exit 2.
    @Test func withoutGitOnThePathTheTreeIsWalkedAndTheIndexIsAnError() {
        let fixture = GitFixture("shipcheck-cli-no-git")
        fixture.write("a.swift", block)
        fixture.write("untracked.swift", block)
        fixture.git("add", "a.swift")
        let noGit = ["PATH": fixture.path + "/no-such-bin"]
        let walked = CommandRunner.shipcheck(["conflicts"], in: fixture.path, environment: noGit)
        #expect(walked.status == 1, "\(walked.stderr)")
        #expect(
            walked.stdout.contains("a.swift:2:1: ") && walked.stdout.contains("untracked.swift:2:1: "),
            "\(walked.stdout)")
        let staged = CommandRunner.shipcheck(["conflicts", "--staged"], in: fixture.path, environment: noGit)
        #expect(staged.status == 2)
        #expect(
            staged.stderr.split(separator: "\n").filter { $0.contains("error:") }
                == ["shipcheck: .: error: not inside a git work tree; --staged reads git's index and objects"],
            "\(staged.stderr)")
    }

    /// A git that fails names its command and says why, in one line; exit 2.
    @Test func aFailingGitListingIsOneErrorLine() {
        let fixture = GitFixture("shipcheck-cli-bad-index")
        fixture.write("a.swift", block)
        fixture.git("add", "a.swift")
        fixture.write(".git/index", "garbage\n")
        for arguments in [["conflicts"], ["conflicts", "--staged"]] {
            let result = CommandRunner.shipcheck(arguments, in: fixture.path)
            #expect(result.status == 2)
            let errors = result.stderr.split(separator: "\n").filter { $0.contains("error:") }
            #expect(
                errors.count == 1
                    && errors.first?.hasPrefix("shipcheck: .: error: git ls-files failed: fatal: ") == true,
                "\(result.stderr)")
        }
    }

    @Test func stagedWithPassedFilenamesChecksOnlyThoseIndexEntries() {
        let fixture = GitFixture("shipcheck-cli-staged")
        fixture.write("a.swift", block)
        fixture.write("b.swift", block)
        fixture.git("add", "a.swift", "b.swift")
        fixture.write("a.swift", "fixed but not staged\n")
        let one = CommandRunner.shipcheck(["conflicts", "--staged", "b.swift"], in: fixture.path)
        #expect(one.status == 1)
        #expect(one.stdout.contains("b.swift:2:1") && !one.stdout.contains("a.swift"))
        let other = CommandRunner.shipcheck(["conflicts", "--staged", "a.swift"], in: fixture.path)
        #expect(other.status == 1, "the index still holds the conflict in a.swift")
    }

    /// The pre-commit hook in a temporary folder on a Mac: `/tmp` and `/var` link into
    /// `/private`, and the current directory is reported with `/private`. The same layout is
    /// made under a temporary folder here; each way of naming the staged file is inside.
    @Test func stagedOperandsReachedThroughALinkToPrivateAreInside() {
        let root = TemporaryDirectory("shipcheck-cli-private")
        let repository = root.path + "/private/tmp/repo"
        #expect(
            (try? FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)) != nil)
        #expect(SystemCalls.makeSymlink("private/tmp", at: root.path + "/tmp") == 0)
        CommandRunner.git(["init", "-q"], in: repository)
        root.write("private/tmp/repo/a.swift", block)
        CommandRunner.git(["add", "a.swift"], in: repository)
        for operand in ["a.swift", "./sub/../a.swift", repository + "/a.swift", root.path + "/tmp/repo/a.swift"] {
            let result = CommandRunner.shipcheck(["conflicts", "--staged", operand], in: repository)
            #expect(result.status == 1, "\(operand): \(result.stderr)")
            #expect(result.stdout.contains("a.swift:2:1: error:"), "\(operand): \(result.stdout)")
        }
        let outside = CommandRunner.shipcheck(["conflicts", "--staged", root.path + "/tmp/other.swift"], in: repository)
        #expect(outside.status == 2 && outside.stderr.contains("is outside the current directory"), "\(outside.stderr)")
    }

    @Test func revisionScopeAndItsErrors() {
        let fixture = GitFixture("shipcheck-cli-rev")
        fixture.write("a.swift", "clean\n")
        fixture.commitAll("clean")
        fixture.git("checkout", "-q", "-b", "release")
        fixture.write("a.swift", block)
        fixture.commitAll("broken")
        fixture.git("checkout", "-q", "main")
        #expect(CommandRunner.shipcheck(["conflicts"], in: fixture.path).status == 0)
        #expect(CommandRunner.shipcheck(["conflicts", "--rev", "release"], in: fixture.path).status == 1)
        let missing = CommandRunner.shipcheck(["conflicts", "--rev", "nope"], in: fixture.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope: error: not a commit or tree"))
        let both = CommandRunner.shipcheck(["conflicts", "--staged", "--rev", "main"], in: fixture.path)
        #expect(both.status == 2)
    }

    @Test func aMergeInProgressAloneIsANoteThatDoesNotFail() {
        let fixture = GitFixture("shipcheck-cli-note")
        fixture.write("a.swift", "x\n")
        fixture.commitAll("base")
        fixture.write(".git/MERGE_HEAD", "0123456789abcdef0123456789abcdef01234567\n")
        let result = CommandRunner.shipcheck(["conflicts", "--strict"], in: fixture.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("note: the repository is in the middle of a merge"))
    }

    @Test func oneDirectoryOutsideTheCurrentOneIsScannedAsItsOwnRoot() {
        let fixture = GitFixture("shipcheck-cli-root")
        fixture.write("Sub/a.swift", block)
        fixture.git("add", "Sub/a.swift")
        let elsewhere = TemporaryDirectory("shipcheck-cli-cwd")
        let result = CommandRunner.shipcheck(["conflicts", fixture.path], in: elsewhere.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("Sub/a.swift:2:1"))
        let mixed = CommandRunner.shipcheck(["conflicts", fixture.path, "x"], in: elsewhere.path)
        #expect(mixed.status == 2)
    }

    @Test func unreadableInputExitsTwoButStillReportsTheRest() {
        let fixture = GitFixture("shipcheck-cli-fifo")
        fixture.write("a.swift", block)
        fixture.git("add", "a.swift")
        #expect(SystemCalls.makeFIFO(fixture.path + "/pipe", 0o644) == 0)
        // git lists no FIFOs, so name it: a named input that cannot be read is an input error.
        let result = CommandRunner.shipcheck(["conflicts", "pipe", "a.swift"], in: fixture.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("pipe: error: not a regular file (FIFO)"))
        #expect(result.stdout.contains("a.swift:2:1"))
    }

    /// A conflicted merge leaves its markers in tracked files; a mergetool's `*.orig` backups
    /// are untracked and hold the same markers on purpose. The working tree's default is the
    /// files git tracks; `--untracked` adds untracked files that are not ignored, never ignored ones.
    @Test func untrackedFilesAreScannedOnlyWhenAskedAndIgnoredOnesNever() {
        let fixture = GitFixture("shipcheck-cli-untracked")
        fixture.writeTrackedUntrackedAndIgnored(
            tracked: ["App.swift": "let a = 1\n"], untracked: ["App.swift.orig": block],
            ignored: ["build/Gen.swift": block])
        fixture.write("App.swift", block)

        let tracked = CommandRunner.shipcheck(["conflicts"], in: fixture.path)
        #expect(tracked.status == 1)
        #expect(
            tracked.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["App.swift"], "\(tracked.stdout)")

        let all = CommandRunner.shipcheck(["conflicts", "--untracked"], in: fixture.path)
        #expect(all.status == 1)
        #expect(
            all.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["App.swift", "App.swift.orig"],
            "\(all.stdout)")

        #expect(CommandRunner.shipcheck(["conflicts", "--untracked", "--staged"], in: fixture.path).status == 2)
        #expect(CommandRunner.shipcheck(["conflicts", "--help"], in: fixture.path).stdout.contains("--untracked"))
    }

    private var repositoryRoot: URL { URL(fileURLWithPath: Repository.root) }

    @Test func sampleTreeReportsExactlyWhatItsExpectedFileLists() throws {
        let expected = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Samples/Conflicts/EXPECTED.md"), encoding: .utf8
        )
        .split(separator: "\n").filter { $0.hasPrefix("    Samples/Conflicts/") }.map { String($0.dropFirst(4)) }
        #expect(expected.count == 2)
        let result = CommandRunner.shipcheck(["conflicts", "Samples/Conflicts"], in: repositoryRoot.path)
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(result.stderr.hasSuffix("shipcheck: 2 errors, 0 warnings, 0 notes\n"))
    }

    @Test func preCommitHookDefinitionRunsTheStagedScan() throws {
        let hooks = try String(
            contentsOf: repositoryRoot.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        #expect(hooks.contains("id: shipcheck-conflicts"))
        #expect(hooks.contains("entry: shipcheck conflicts --staged"))
        #expect(hooks.contains("language: system"))
    }
}
