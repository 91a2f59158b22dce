import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@Suite struct VersionTests {
    @Test func versionNamesTheReleaseTheGitRevisionAndELFSupport() throws {
        let result = CommandRunner.shipcheck(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(
            line.wholeMatch(of: /(\S+) \(revision ([0-9a-f]{12}|unknown), ELF support: (yes|no)\)/))
        #expect(match.1 == Report.toolVersion)
        // Built from this checkout: the revision is one of its commits.
        let revision = String(match.2)
        #expect(revision != "unknown")
        #expect(
            CommandRunner.git(["cat-file", "-t", revision], in: Repository.root, allowFailure: true).stdout
                == "commit\n")
    }
}

/// `scripts/build-revision.sh`, the ShipcheckBuildInfo plugin's command, where git cannot run:
/// a `git` on PATH that fails as macOS's xcrun shim does inside the plugin sandbox.
@Suite struct BuildRevisionTests {
    private func revision(of directory: String) -> String {
        let scratch = TemporaryDirectory("shipcheck-build-revision")
        let failingGit = scratch.write(
            "bin/git", "#!/bin/sh\necho 'xcrun: error: cannot be used within an App Sandbox.' >&2\nexit 1\n")
        SystemCalls.setMode(failingGit, 0o755)
        let path = scratch.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = CommandRunner.run(
            "/bin/sh", [Repository.path("scripts/build-revision.sh"), directory, scratch.path + "/out"],
            environment: ["PATH": path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = scratch.read("out/BuildInfo.swift") ?? ""
        return text.firstMatch(of: /gitRevision = "([^"]*)"/).map { String($0.1) } ?? text
    }

    @Test func revisionIsReadFromGitsFilesWithoutGit() {
        let fixture = GitFixture("shipcheck-build-revision-repo")
        fixture.commitAll("first")
        let head = String(fixture.git("rev-parse", "--short=12", "HEAD").stdout.prefix(12))
        #expect(revision(of: fixture.path) == head, "a loose ref")
        fixture.git("pack-refs", "--all")
        #expect(revision(of: fixture.path) == head, "a packed ref")
        let worktree = TemporaryDirectory("shipcheck-build-revision-worktree")
        fixture.git("worktree", "add", "-q", "--detach", worktree.path + "/linked")
        #expect(revision(of: worktree.path + "/linked") == head, "a linked worktree, detached")
        #expect(revision(of: worktree.path) == "unknown", "no checkout")
    }
}

@Suite struct ReleaseTarballTests {
    let release = PackedRelease.shared

    @Test func checksumFileMatchesTheTarball() throws {
        let line = try String(contentsOfFile: release.tarball + ".sha256", encoding: .utf8)
        let digest = SHA256Tool.run([release.tarball]).stdout.prefix(64)
        #expect(line == "\(digest)  \(release.tarballName)\n")
        #expect(SHA256Tool.run(["-c", release.tarballName + ".sha256"], in: release.directory).status == 0)
    }

    @Test func tarballHoldsTheBinaryCompletionsAndReadme() {
        let unpacked = TemporaryDirectory()
        let top = release.unpack(into: unpacked)
        for file in [
            "bin/shipcheck", "README.md", "share/bash-completion/completions/shipcheck",
            "share/zsh/site-functions/_shipcheck", "share/fish/vendor_completions.d/shipcheck.fish"
        ] {
            #expect(FileManager.default.fileExists(atPath: top + "/" + file), "tarball lacks \(file)")
        }
        let bash =
            (try? String(contentsOfFile: top + "/share/bash-completion/completions/shipcheck", encoding: .utf8)) ?? ""
        #expect(
            bash.contains("audit") && bash.contains("--format"),
            "the bash completion does not complete subcommands and options")
    }

    @Test(.needsELF) func unpackedBinaryAuditsSamplesWithNoToolchainOnPath() throws {
        // The release binaries Samples/.shipcheck.yml names (built with the toolchain, once).
        _ = Repository.sampleBinaries
        // and the demo's .ipa and App Bundle, audited with --binary as `make demo` does
        let unpacked = TemporaryDirectory()
        let top = release.unpack(into: unpacked)
        let path = ToolchainFreePath.make(in: unpacked)
        #expect(
            CommandRunner.run("/bin/sh", ["-c", "command -v swift swiftc"], environment: ["PATH": path]).stdout.isEmpty)
        let result = CommandRunner.run(
            top + "/bin/shipcheck",
            [
                "audit", "Samples", "--no-color", "--binary", Repository.demoIPA, "--binary",
                "Tests/Fixtures/android/Planted.aab"
            ],
            in: Repository.root, environment: ["PATH": path])
        #expect(result.status == 1, "\(result.stderr)")
        // Exactly the findings Samples/EXPECTED.md lists, as `make demo` checks them:
        // "path:line:col rule" per finding, binary offsets left out.
        let reported = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /(.*): (?:error|warning|note): .* \[([a-z0-9-]+)\]/) else {
                return nil
            }
            return "\(match.1.replacing(/:0x[0-9a-f]+$/, with: "")) \(match.2)"
        }
        let document = try String(contentsOfFile: Repository.path("Samples/EXPECTED.md"), encoding: .utf8)
        let listing = try #require(document.firstMatch(of: /<!-- audit:begin -->\n```\n((?s).*?)```/)).1
        let expected = listing.split(separator: "\n").map(String.init)
        #expect(expected.count > 30)
        #expect(reported.sorted() == expected.sorted())
    }

    @Test func artifactBundleHasOneVariantForThisPlatform() throws {
        let data = try #require(FileManager.default.contents(atPath: release.bundle + "/info.json"))
        let info = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(info["schemaVersion"] as? String == "1.0")
        let artifact = try #require((info["artifacts"] as? [String: Any])?["shipcheck"] as? [String: Any])
        #expect(artifact["type"] as? String == "executable")
        #expect(artifact["version"] as? String == Report.toolVersion)
        let variants = try #require(artifact["variants"] as? [[String: Any]])
        #expect(variants.count == 1)
        #expect(variants.first?["supportedTriples"] as? [String] == [release.hostTriple])
        let executable = release.bundle + "/" + (variants.first?["path"] as? String ?? "")
        #expect(CommandRunner.run(executable, ["--version"]).stdout.hasPrefix(Report.toolVersion + " "))
    }
}
