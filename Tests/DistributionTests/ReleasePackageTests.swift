import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@Suite struct VersionTests {
    @Test func versionNamesTheReleaseTheGitRevisionAndELFSupport() throws {
        let result = CommandRunner.shipcheck(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: /(\S+) \(revision ([0-9a-f]{12}|unknown), ELF support: (yes|no)\)/))
        #expect(match.1 == Report.toolVersion)
        // Built from this checkout: the revision is one of its commits.
        let revision = String(match.2)
        #expect(revision != "unknown")
        #expect(CommandRunner.git(["cat-file", "-t", revision], in: Repository.root, allowFailure: true).stdout == "commit\n")
    }
}

@Suite struct ReleaseTarballTests {
    let release = PackedRelease.shared

    @Test func checksumFileMatchesTheTarball() throws {
        let line = try String(contentsOfFile: release.tarball + ".sha256", encoding: .utf8)
        let digest = CommandRunner.run("sha256sum", [release.tarball]).stdout.prefix(64)
        #expect(line == "\(digest)  \(release.tarballName)\n")
        #expect(CommandRunner.run("sha256sum", ["-c", release.tarballName + ".sha256"], in: release.directory).status == 0)
    }

    @Test func tarballHoldsTheBinaryCompletionsAndReadme() {
        let unpacked = TemporaryDirectory()
        let top = release.unpack(into: unpacked)
        for file in ["bin/shipcheck", "README.md", "share/bash-completion/completions/shipcheck",
                     "share/zsh/site-functions/_shipcheck", "share/fish/vendor_completions.d/shipcheck.fish"] {
            #expect(FileManager.default.fileExists(atPath: top + "/" + file), "tarball lacks \(file)")
        }
        let bash = (try? String(contentsOfFile: top + "/share/bash-completion/completions/shipcheck", encoding: .utf8)) ?? ""
        #expect(bash.contains("audit") && bash.contains("--format"), "the bash completion does not complete subcommands and options")
    }

    @Test func unpackedBinaryAuditsSamplesWithNoToolchainOnPath() throws {
        _ = Repository.sampleBinaries  // the release binaries Samples/.shipcheck.yml names (built with the toolchain, once)
        let unpacked = TemporaryDirectory()
        let top = release.unpack(into: unpacked)
        let path = ToolchainFreePath.make(in: unpacked)
        #expect(CommandRunner.run("/bin/sh", ["-c", "command -v swift swiftc"], environment: ["PATH": path]).stdout.isEmpty)
        let result = CommandRunner.run(top + "/bin/shipcheck", ["audit", "Samples", "--no-color"], in: Repository.root, environment: ["PATH": path])
        #expect(result.status == 1, "\(result.stderr)")
        // Exactly the findings Samples/EXPECTED.md lists, as `make demo` checks them:
        // "path:line:col rule" per finding, binary offsets left out.
        let reported = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /(.*): (?:error|warning|note): .* \[([a-z-]+)\]/) else { return nil }
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
        #expect(variants.first?["supportedTriples"] as? [String] == [release.platform])
        let executable = release.bundle + "/" + (variants.first?["path"] as? String ?? "")
        #expect(CommandRunner.run(executable, ["--version"]).stdout.hasPrefix(Report.toolVersion + " "))
    }
}
