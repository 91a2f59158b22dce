import ConflictScan
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// A repository with `main` and `feature` that changed the same lines of `path` differently.
private func divergedRepository(
    path: String = "Sources/App.swift",
    base: String = "let a = 1\nlet retries = 1\nlet z = 26\n",
    ours: String = "let a = 1\nlet retries = 3\nlet z = 26\n",
    theirs: String = "let a = 1\nlet retries = 5\nlet z = 26\n",
    extra: [String: String] = [:]
) -> GitFixture {
    let fixture = GitFixture("shipcheck-conflict")
    for (file, text) in extra { fixture.write(file, text) }
    fixture.write(path, base)
    fixture.commitAll("base")
    fixture.git("checkout", "-q", "-b", "feature")
    fixture.write(path, theirs)
    fixture.commitAll("Retry more")
    fixture.git("checkout", "-q", "main")
    fixture.write(path, ours)
    fixture.commitAll("Retry less")
    return fixture
}

private func scan(
    _ fixture: GitFixture, _ scope: ConflictScope = .workingTree, configuration: Configuration = Configuration(),
    paths: [String] = []
) -> CheckResult {
    ConflictScanner(
        root: fixture.path, configuration: configuration, rules: RuleRegistry.rules, scope: scope, paths: paths
    ).run()
}

private func rules(_ result: CheckResult) -> [String] { result.findings.map(\.ruleID) }

private func blocks(_ result: CheckResult) -> [Finding] { result.findings.filter { $0.ruleID == "conflict-marker" } }

@Suite struct GitWrittenConflictTests {
    @Test func mergeConflictIsOneBlockWithBothLabelsAndAMergeNote() throws {
        let fixture = divergedRepository()
        fixture.git("merge", "-q", "feature", allowFailure: true)
        let result = scan(fixture)
        // As printed: the report puts the git directory's note first.
        let printed = Report(findings: result.findings).findings
        #expect(printed.map(\.ruleID) == ["merge-in-progress", "conflict-marker"])
        let block = try #require(blocks(result).first)
        #expect(
            block.location
                == .source(SourceLocation(path: "Sources/App.swift", line: 2, column: 1, endLine: 6, endColumn: 16)))
        #expect(block.message.contains("'HEAD'") && block.message.contains("'feature'"))
        #expect(block.severity == .error)
        #expect(result.inputErrors.isEmpty)
        #expect(printed.first?.location.path == ".git/MERGE_HEAD")
    }

    @Test(arguments: ["diff3", "zdiff3"])
    func baseSectionStylesAreOneBlockEach(_ style: String) throws {
        let fixture = divergedRepository()
        fixture.git("-c", "merge.conflictStyle=\(style)", "merge", "-q", "feature", allowFailure: true)
        let found = blocks(scan(fixture))
        #expect(found.count == 1)
        let block = try #require(found.first)
        #expect(block.message.contains("base section"))
        #expect(block.snippet?.contains("|||||||") == true)
    }

    @Test func checkoutConflictZdiff3UsesOursBaseTheirsLabels() throws {
        let fixture = divergedRepository()
        fixture.git("merge", "-q", "feature", allowFailure: true)
        fixture.git("checkout", "--conflict=zdiff3", "--", "Sources/App.swift")
        let block = try #require(blocks(scan(fixture)).first)
        #expect(block.snippet == "<<<<<<< ours\n||||||| base\n=======\n>>>>>>> theirs")
    }

    @Test func rebaseConflictNamesThePickedCommit() throws {
        let fixture = divergedRepository()
        fixture.git("checkout", "-q", "feature")
        fixture.git("rebase", "main", allowFailure: true)
        let result = scan(fixture)
        let block = try #require(blocks(result).first)
        #expect(block.message.contains("(Retry more)"))
        let note = try #require(result.findings.first { $0.ruleID == "merge-in-progress" })
        #expect(note.message.contains("rebase"))
        #expect(note.severity == .note)
    }

    @Test(arguments: [("cherry-pick", "CHERRY_PICK_HEAD"), ("revert", "REVERT_HEAD")])
    func cherryPickAndRevertLeaveNoMergeHeadButAreFound(_ command: String, _ stateFile: String) throws {
        let fixture = divergedRepository()
        if command == "revert" {
            // Reverting "Retry less" after a later change to the same line conflicts.
            fixture.write("Sources/App.swift", "let a = 1\nlet retries = 9\nlet z = 26\n")
            fixture.commitAll("Retry nine")
            fixture.git("revert", "--no-edit", "main~1", allowFailure: true)
        } else {
            fixture.git("cherry-pick", "feature", allowFailure: true)
        }
        let result = scan(fixture)
        #expect(!fixture.directory.exists(".git/MERGE_HEAD"))
        #expect(blocks(result).count == 1, "\(result.findings)")
        let note = try #require(result.findings.first { $0.ruleID == "merge-in-progress" })
        #expect(note.location.path == ".git/\(stateFile)")
    }

    @Test func stashPopConflictUsesStashLabels() throws {
        let fixture = divergedRepository()
        fixture.git("checkout", "-q", "feature")
        fixture.write("Sources/App.swift", "let a = 1\nlet retries = 7\nlet z = 26\n")
        fixture.git("stash", "-q")
        fixture.git("merge", "-q", "main", "-X", "theirs", "-m", "take main")
        fixture.git("stash", "pop", allowFailure: true)
        let result = scan(fixture)
        let block = try #require(blocks(result).first)
        #expect(block.message.contains("'Updated upstream'") && block.message.contains("'Stashed changes'"))
        #expect(!rules(result).contains("merge-in-progress"), "stash pop leaves no state file")
    }

    @Test func renameConflictIsFoundUnderTheNewName() throws {
        let fixture = divergedRepository(path: "old.txt", base: "a\nb\nc\n", ours: "a\nb\nc\n", theirs: "a\nB2\nc\n")
        fixture.git("mv", "old.txt", "new.txt")
        fixture.write("new.txt", "a\nB1\nc\n")
        fixture.commitAll("rename and edit")
        fixture.git("merge", "-q", "feature", allowFailure: true)
        let block = try #require(blocks(scan(fixture)).first)
        #expect(block.location.path == "new.txt")
        #expect(block.message.contains("HEAD:new.txt") || block.message.contains("feature:old.txt"))
    }

    @Test func addAddConflictWithDiff3HasAnEmptyBase() throws {
        let fixture = GitFixture("shipcheck-addadd")
        fixture.write("README.md", "x\n")
        fixture.commitAll("base")
        fixture.git("checkout", "-q", "-b", "feature")
        fixture.write("Config.swift", "let mode = \"theirs\"\n")
        fixture.commitAll("add theirs")
        fixture.git("checkout", "-q", "main")
        fixture.write("Config.swift", "let mode = \"ours\"\n")
        fixture.commitAll("add ours")
        fixture.git("-c", "merge.conflictStyle=diff3", "merge", "-q", "feature", allowFailure: true)
        let result = scan(fixture)
        let block = try #require(blocks(result).first)
        #expect(block.snippet?.contains("|||||||") == true)
        #expect(!rules(result).contains("unmerged-path"), "a path with a reported block is not reported twice")
    }

    @Test func crissCrossMergeNestsLongerMarkersInOneBlock() throws {
        let fixture = GitFixture("shipcheck-crisscross")
        fixture.write("f.txt", "1\n2\n3\n")
        fixture.commitAll("base")
        fixture.git("branch", "side")
        fixture.write("f.txt", "1\nmain\n3\n")
        fixture.commitAll("main edit")
        fixture.git("checkout", "-q", "side")
        fixture.write("f.txt", "1\nside\n3\n")
        fixture.commitAll("side edit")
        // Merge each way, resolving differently: two merge bases that conflict with each other.
        fixture.git("checkout", "-q", "-b", "side2")
        fixture.git("merge", "-q", "main", allowFailure: true)
        fixture.write("f.txt", "1\nside wins\n3\n")
        fixture.commitAll("resolve side")
        fixture.git("checkout", "-q", "main")
        fixture.git("merge", "-q", "side", allowFailure: true)
        fixture.write("f.txt", "1\nmain wins\n3\n")
        fixture.commitAll("resolve main")
        fixture.git("-c", "merge.conflictStyle=diff3", "merge", "-q", "side2", allowFailure: true)
        let text = try #require(fixture.directory.read("f.txt"))
        #expect(text.contains("<<<<<<<<< "), "git wrote nested 9-character markers")
        let result = scan(fixture)
        let block = try #require(blocks(result).first)
        #expect(blocks(result).count == 1)
        #expect(block.message.contains("nested"))
        #expect(!rules(result).contains("conflict-marker-remnant"))
    }

    @Test func customMarkerSizeComesFromGitAttributes() throws {
        let underline = String(repeating: "=", count: 7)
        let fixture = divergedRepository(
            path: "Docs/guide.rst",
            base: "Guide\n\(underline)\n\nretries: 1\n", ours: "Guide\n\(underline)\n\nretries: 3\n",
            theirs: "Guide\n\(underline)\n\nretries: 5\n",
            extra: [".gitattributes": "*.rst conflict-marker-size=32\n"])
        fixture.git("merge", "-q", "feature", allowFailure: true)
        let text = try #require(fixture.directory.read("Docs/guide.rst"))
        #expect(text.contains(String(repeating: "<", count: 32) + " HEAD"))
        let result = scan(fixture)
        let block = try #require(blocks(result).first)
        #expect(block.location.line == 4)
        #expect(block.message.contains("marker size 32"))
        #expect(blocks(result).count == 1 && !rules(result).contains("conflict-marker-remnant"))
    }

    @Test func markerSizesBelowSevenAreHonouredToo() throws {
        let fixture = GitFixture("shipcheck-small-markers")
        fixture.write(".gitattributes", "*.txt conflict-marker-size=4\n")
        fixture.write("a.txt", "<<<< HEAD\nours\n====\ntheirs\n>>>> feature\n")
        fixture.write("b.swift", "<<<< HEAD\nours\n====\ntheirs\n>>>> feature\n")
        fixture.git("add", "-A")
        let result = scan(fixture)
        #expect(result.findings.map(\.location.path) == ["a.txt"])
        #expect(result.findings.first?.message.contains("marker size 4") == true)
    }

    @Test func attributesFromInfoAttributesApply() {
        let fixture = GitFixture("shipcheck-info-attributes")
        fixture.write(".git/info/attributes", "*.generated binary\n*.txt conflict-marker-size=5\n")
        fixture.write("a.generated", "<<<<<<< HEAD\n=======\n>>>>>>> x\n")
        fixture.write("b.txt", "<<<<< HEAD\n=====\n>>>>> x\n")
        fixture.git("add", "-A")
        #expect(scan(fixture).findings.map(\.location.path) == ["b.txt"])
    }

    @Test func crlfFileConflictIsFound() throws {
        let fixture = divergedRepository(
            path: "win.txt", base: "a\r\nb\r\nc\r\n", ours: "a\r\nB1\r\nc\r\n", theirs: "a\r\nB2\r\nc\r\n")
        fixture.git("merge", "-q", "feature", allowFailure: true)
        let block = try #require(blocks(scan(fixture)).first)
        #expect(block.location.line == 2)
        #expect(block.message.contains("'HEAD'") && block.message.contains("'feature'"), "labels without the CR")
    }

    @Test func binaryConflictIsAnUnmergedPath() throws {
        let fixture = GitFixture("shipcheck-binary")
        fixture.directory.write("logo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 1, 2])
        fixture.commitAll("base")
        fixture.git("checkout", "-q", "-b", "feature")
        fixture.directory.write("logo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 3, 4])
        fixture.commitAll("theirs")
        fixture.git("checkout", "-q", "main")
        fixture.directory.write("logo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 5, 6])
        fixture.commitAll("ours")
        fixture.git("merge", "-q", "feature", allowFailure: true)
        for scope in [ConflictScope.workingTree, .staged] {
            let result = scan(fixture, scope)
            let unmerged = try #require(result.findings.first { $0.ruleID == "unmerged-path" })
            #expect(unmerged.location == .file(path: "logo.png"))
            #expect(unmerged.message.contains("both modified"))
            #expect(blocks(result).isEmpty)
        }
    }

    @Test func modifyDeleteConflictSaysWhichSideDeleted() throws {
        let fixture = divergedRepository()
        fixture.git("checkout", "-q", "feature")
        fixture.git("rm", "-q", "Sources/App.swift")
        fixture.commitAll("delete")
        fixture.git("checkout", "-q", "main")
        fixture.git("merge", "-q", "feature", allowFailure: true)
        let unmerged = try #require(scan(fixture).findings.first { $0.ruleID == "unmerged-path" })
        #expect(unmerged.message.contains("deleted by them"))
    }
}

@Suite struct DecoyTests {
    @Test func proseUnderlinesStringsAndOtherRunsAreNotConflicts() {
        let fixture = GitFixture("shipcheck-decoys")
        fixture.write("README.md", "Title\n=======\n\nSection\n=======\n\n> quote\n>>>>>>>> eight\n")
        fixture.write(
            "Docs/index.rst",
            String(repeating: "=", count: 40) + "\nTitle\n" + String(repeating: "=", count: 40) + "\n\n"
                + String(repeating: "<", count: 12) + "\n")
        fixture.write(
            "Sources/Banner.swift",
            """
            let banner = "<<<<<<< HEAD"
            let rule = "=======" // not at a line start
                <<<<<<< indented is not a marker
            /* >>>>>>> in a comment after text */
            <<<<<<<< eight is not seven
            ||||||||
            x = a || b ||||||| c

            """)
        fixture.write("table.txt", "|||||||\u{0B}\n=======x\n")
        fixture.commitAll("decoys")
        let result = scan(fixture)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.filesScanned == 4)
    }

    @Test func binaryFilesAndBinaryAttributesAreSkipped() {
        let fixture = GitFixture("shipcheck-binary-skip")
        let block = "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n"
        fixture.directory.write("data.bin", bytes: [0] + Array(block.utf8))
        fixture.write("generated.pbxproj", block)
        fixture.write("vendor.lock", block)
        fixture.write("text.swift", block)
        fixture.write(".gitattributes", "*.pbxproj binary\n*.lock -diff\n")
        fixture.commitAll("binaries")
        let result = scan(fixture)
        #expect(result.findings.map(\.location.path) == ["text.swift"])
    }
}

@Suite struct ScopeTests {
    private let block = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"

    @Test func stagedReadsTheIndexNotTheWorkingTree() {
        let fixture = GitFixture("shipcheck-staged")
        fixture.write("a.swift", "clean\n")
        fixture.write("b.swift", "clean\n")
        fixture.commitAll("base")
        fixture.write("a.swift", block)
        fixture.git("add", "a.swift")
        fixture.write("a.swift", "fixed on disk, not staged\n")
        fixture.write("b.swift", block)  // on disk only
        let staged = scan(fixture, .staged)
        #expect(staged.findings.map(\.location.path) == ["a.swift"])
        #expect(staged.filesScanned == 2)
        let workingTree = scan(fixture)
        #expect(workingTree.findings.map(\.location.path) == ["b.swift"])
    }

    @Test func stagedHonoursPathOperandsAndReportsUnknownOnes() {
        let fixture = GitFixture("shipcheck-staged-paths")
        fixture.write("a.swift", block)
        fixture.write("Sub/b.swift", block)
        fixture.git("add", "-A")
        #expect(scan(fixture, .staged, paths: ["Sub"]).findings.map(\.location.path) == ["Sub/b.swift"])
        #expect(scan(fixture, .staged, paths: ["./a.swift"]).findings.map(\.location.path) == ["a.swift"])
        let missing = scan(fixture, .staged, paths: ["nope.swift"])
        #expect(missing.inputErrors.map(\.path) == ["nope.swift"])
    }

    @Test func revisionReadsACommittedTreeWithoutCheckout() {
        let fixture = GitFixture("shipcheck-rev")
        fixture.write("a.swift", "clean\n")
        fixture.write(".gitattributes", "*.rst conflict-marker-size=32\n")
        fixture.commitAll("base")
        fixture.git("checkout", "-q", "-b", "release")
        fixture.write("a.swift", block)
        fixture.write("Docs/x.rst", block)  // 7-char markers are text where the size is 32
        fixture.commitAll("broken release")
        fixture.git("checkout", "-q", "main")
        #expect(scan(fixture).findings.isEmpty)
        let result = scan(fixture, .revision("release"))
        #expect(result.findings.map(\.location.path) == ["a.swift"])
        #expect(result.filesScanned == 3)
        #expect(result.inputErrors.isEmpty)
        #expect(fixture.directory.read("a.swift") == "clean\n", "no checkout happened")
    }

    @Test func revisionUsesTheRevisionsOwnAttributes() {
        let fixture = GitFixture("shipcheck-rev-attributes")
        fixture.write("x.rst", block)
        fixture.write(".gitattributes", "*.rst conflict-marker-size=32\n")
        fixture.commitAll("size 32")
        fixture.write(".gitattributes", "")  // the working tree's attributes say 7
        #expect(scan(fixture).findings.count == 1)
        #expect(scan(fixture, .revision("HEAD")).findings.isEmpty)
    }

    @Test func unknownRevisionIsAnInputError() {
        let fixture = GitFixture("shipcheck-rev-missing")
        fixture.write("a.swift", "x\n")
        fixture.commitAll("base")
        for revision in ["no-such-branch", "--output=/tmp/x"] {
            let result = scan(fixture, .revision(revision))
            #expect(result.inputErrors.count == 1)
            #expect(result.inputErrors.first?.path == revision)
        }
    }

    @Test func indexScopesNeedGit() {
        let directory = TemporaryDirectory("shipcheck-nogit")
        directory.write("a.swift", block)
        let result = ConflictScanner(
            root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules, scope: .staged
        ).run()
        #expect(result.inputErrors.count == 1)
        #expect(
            ConflictScanner(root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules).run()
                .findings.count == 1, "plain directories are walked")
    }

    @Test func workingTreeOperandsLimitTheScan() {
        let fixture = GitFixture("shipcheck-operands")
        fixture.write("a.swift", block)
        fixture.write("Sub/b.swift", block)
        fixture.write("ignored.log", block)
        fixture.write(".gitignore", "*.log\n")
        fixture.git("add", "-A")
        fixture.write("untracked.swift", block)
        #expect(scan(fixture).findings.map(\.location.path) == ["Sub/b.swift", "a.swift"])
        #expect(scan(fixture, paths: ["Sub/"]).findings.map(\.location.path) == ["Sub/b.swift"])
        #expect(
            scan(fixture, paths: ["ignored.log"]).findings.map(\.location.path) == ["ignored.log"],
            "a named file is scanned even if ignored")
        #expect(
            scan(fixture, paths: ["untracked.swift"]).findings.map(\.location.path) == ["untracked.swift"],
            "or untracked")
        #expect(scan(fixture, paths: ["gone.swift"]).inputErrors.map(\.path) == ["gone.swift"])
    }
}

@Suite struct AllowlistAndSeverityTests {
    private let block = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"

    @Test func configAllowGlobsSkipFilesInEveryScope() throws {
        let fixture = GitFixture("shipcheck-allow")
        fixture.write("Docs/merging.md", block)
        fixture.write("Tests/Fixtures/conflict.txt", block)
        fixture.write("Sources/a.swift", block)
        fixture.commitAll("base")
        let configuration = try ConfigurationLoader.parse(
            "conflicts:\n  allow:\n    - Docs/**\n    - Fixtures\n", file: ".shipcheck.yml",
            rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
        for scope in [ConflictScope.workingTree, .staged, .revision("HEAD")] {
            #expect(
                scan(fixture, scope, configuration: configuration).findings.map(\.location.path) == ["Sources/a.swift"])
        }
    }

    @Test func ruleSeveritiesComeFromConfiguration() throws {
        let fixture = GitFixture("shipcheck-severity")
        fixture.write("a.swift", block + ">>>>>>> stray\n")
        fixture.git("add", "a.swift")
        let configuration = try ConfigurationLoader.parse(
            "rules:\n  conflict-marker: warning\n  conflict-marker-remnant: off\n",
            file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
        let result = scan(fixture, configuration: configuration)
        #expect(result.findings.map(\.ruleID) == ["conflict-marker"])
        #expect(result.findings.first?.severity == .warning)
    }

    @Test func fingerprintsSurviveLinesInsertedAbove() {
        let fixture = GitFixture("shipcheck-fingerprint")
        fixture.write("a.swift", block)
        fixture.git("add", "a.swift")
        let before = Report(findings: scan(fixture).findings).findings.map(\.fingerprint)
        fixture.write("a.swift", "// new header\n\n" + block)
        let after = Report(findings: scan(fixture).findings).findings.map(\.fingerprint)
        #expect(before.count == 1 && before == after)
    }
}

/// Conflict markers take the one suppression grammar; the forms they took before it still work
/// and leave a note that says how to write them now.
@Suite struct ConflictSuppressionTests {
    private let block = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"

    @Test func theGrammarSilencesWithoutANote() {
        let fixture = GitFixture("shipcheck-suppress")
        fixture.write("a.swift", "// shipcheck:ignore conflict-marker -- the parser test needs a real block\n" + block)
        fixture.write("b.md", "<!-- shipcheck:ignore conflict-marker -- shown on purpose -->\n" + block)
        fixture.write("c.swift", block)  // unsilenced: the scan reads these files
        fixture.git("add", "-A")
        let result = scan(fixture)
        #expect(result.findings.map(\.location.path) == ["c.swift"])
        #expect(result.notes.isEmpty)
    }

    @Test func oldFormsStillSilenceWithADeprecationNote() throws {
        let fixture = GitFixture("shipcheck-suppress-old")
        fixture.write("a.swift", "# shipcheck:ignore conflict-marker\n" + block)
        fixture.write(
            "b.txt", "<<<<<<< HEAD shipcheck:ignore conflict-marker\nours\n=======\ntheirs\n>>>>>>> feature\n")
        fixture.git("add", "-A")
        let result = scan(fixture)
        #expect(result.findings.isEmpty)
        #expect(result.notes.map(\.path) == ["a.swift", "b.txt"])
        let note = try #require(result.notes.first)
        #expect(note.line == 1 && note.message.contains("deprecated") && note.message.contains("-- why"))
    }
}
