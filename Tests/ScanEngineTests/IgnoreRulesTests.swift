import Foundation
import ShipcheckTestSupport
import Testing

@testable import ScanEngine

/// The walk `FileEnumerator` falls back to when git cannot run (macOS's plugin sandbox) lists
/// what git itself lists: every kind of ignore line, checked against git on the same tree.
@Suite struct IgnoreRulesTests {
    /// A work tree with a line of each kind: a directory-only name, a name at any depth and its
    /// negation, an anchored path, `**` at the start, middle and end, an escaped `#`, trailing
    /// spaces, a re-included directory (in a nested `.gitignore`, which outranks its parent's),
    /// `info/exclude`, the user's excludes file, a nested repository and a folder of findings.
    func makeRepository(userConfig: TemporaryDirectory) -> GitFixture {
        let repository = GitFixture("shipcheck-ignore")
        repository.write(
            ".gitignore",
            """
            # build products
            build/
            *.log
            !keep.log
            /Generated
            **/Carthage/Checkouts
            Docs/**/draft.md
            cache/**
            !cache/keep.swift
            \\#hash.swift
            trailing.swift   \("")
            Vendor/*
            !Vendor/Kept
            Findings

            """)
        repository.write("App/.gitignore", "local.swift\n!Sub/build/\n/Only*.swift\n")
        repository.write("App/View.swift", "tracked")
        repository.commitAll("tracked")
        repository.write(".git/info/exclude", "secret.swift\n")
        userConfig.write("git/ignore", "*.tmp\n")
        for path in [
            "App/New.swift", "App/debug.log", "App/keep.log", "App/local.swift", "App/Sub/build/Kept.swift",
            "App/Sub/local.swift", "App/OnlyHere.swift", "App/Sub/OnlyThere.swift", "build/Out.swift",
            "Generated/X.swift", "App/Generated/Y.swift", "Lib/Carthage/Checkouts/Z.swift",
            "Carthage/Checkouts/W.swift",
            "Docs/draft.md", "Docs/a/b/draft.md", "Docs/final.md", "cache/A.swift", "cache/keep.swift",
            "#hash.swift", "trailing.swift", "Vendor/Lib/x.swift", "Vendor/Kept/y.swift", "secret.swift",
            "notes.tmp", "Findings/Leak.swift", "App/Findings/Leak.swift", "Nested/inner.swift"
        ] {
            repository.write(path, "x")
        }
        CommandRunner.git(["init", "-q"], in: repository.path + "/Nested")
        return repository
    }

    /// `git ls-files --others --cached --exclude-standard` in `directory`, with the user's git
    /// configuration in `userConfig`; less a nested repository, which git lists as `Nested/` and
    /// the enumerator, finding a directory there, leaves out as well.
    func gitListing(in directory: String, userConfig: TemporaryDirectory) -> [String] {
        let listed = CommandRunner.run(
            "git", ["ls-files", "-z", "--others", "--cached", "--exclude-standard"], in: directory,
            environment: ["XDG_CONFIG_HOME": userConfig.path, "HOME": userConfig.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        return listed.stdout.split(separator: "\0").map(String.init).filter { !$0.hasSuffix("/") }.sorted()
    }

    func walkedListing(of directory: String, userConfig: TemporaryDirectory) -> [String] {
        FileEnumerator(root: directory, scope: ScanScope())
            .walked(honouringIgnoreFiles: true, environment: ["XDG_CONFIG_HOME": userConfig.path])
            .files.map(\.relativePath).sorted()
    }

    @Test func walkListsWhatGitListsInAWorkTree() {
        let userConfig = TemporaryDirectory()
        let repository = makeRepository(userConfig: userConfig)
        let expected = gitListing(in: repository.path, userConfig: userConfig)
        // What git keeps and leaves out, so the comparison below is about these lines.
        #expect(
            expected == [
                ".gitignore", "App/.gitignore", "App/Generated/Y.swift", "App/New.swift", "App/Sub/OnlyThere.swift",
                "App/Sub/build/Kept.swift", "App/View.swift", "App/keep.log", "Docs/final.md", "Vendor/Kept/y.swift",
                "cache/keep.swift"
            ])
        #expect(walkedListing(of: repository.path, userConfig: userConfig) == expected)
    }

    /// A root below the work tree's top takes the `.gitignore` files above it; a root inside an
    /// ignored directory lists nothing, as git does.
    @Test func walkOfASubdirectoryListsWhatGitListsThere() {
        let userConfig = TemporaryDirectory()
        let repository = makeRepository(userConfig: userConfig)
        for subdirectory in ["App/Sub", "Vendor", "build"] {
            let root = repository.path + "/" + subdirectory
            let expected = gitListing(in: root, userConfig: userConfig)
            #expect(walkedListing(of: root, userConfig: userConfig) == expected, "\(subdirectory)")
        }
        #expect(
            gitListing(in: repository.path + "/App/Sub", userConfig: userConfig) == [
                "OnlyThere.swift", "build/Kept.swift"
            ])
    }

    /// Outside a work tree no ignore file applies: the walk lists everything, `.gitignore` too.
    @Test func walkOutsideAWorkTreeIgnoresNothing() {
        let directory = TemporaryDirectory()
        directory.write(".gitignore", "build/\n")
        directory.write("build/Out.swift", "x")
        let walked = FileEnumerator(root: directory.path, scope: ScanScope()).walked(honouringIgnoreFiles: true)
        #expect(walked.files.map(\.relativePath).sorted() == [".gitignore", "build/Out.swift"])
    }
}
