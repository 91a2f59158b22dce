import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

/// `shipcheck diff` and `--previous` on the real binary: the demo app's two releases
/// (Samples/Bundles/make_ipa.py), the committed Android fixtures, exit codes and formats.
@Suite struct DiffCommandTests {
    static var previous: String { Repository.path(Repository.previousDemoIPA) }
    static var release: String { Repository.path(Repository.demoIPA) }

    @Test func theDemoReleaseAgainstItsPredecessorShowsEachSectionAndFailsTheGate() {
        let result = CommandRunner.shipcheck(["diff", "--no-color", "--heading", Self.previous, Self.release])
        #expect(result.status == 1, "\(result.stderr)")
        for section in [
            "Identity and version", "Images", "SDKs", "Libraries loaded", "Permissions and declarations", "Size",
            "Segments and sections of changed images", "Files added or grown most (install size)"
        ] {
            #expect(result.stdout.contains("\n\(section)\n"), "no \(section) section in:\n\(result.stdout)")
        }
        #expect(
            result.stdout.contains("CFBundleVersion 7 is lower than the previous release's (8 in Demo-previous.ipa)"))
        #expect(result.stdout.contains("raises the minimum from iOS 15.0 to iOS 16.0"))
        #expect(result.stdout.contains("Alamofire is added since the previous release"))
        #expect(result.stdout.contains("[previous-test-library-added]"))
    }

    @Test func theSameReleaseTwiceIsOneLineAndExitZero() {
        let result = CommandRunner.shipcheck(["diff", Self.release, Self.release])
        #expect(result.status == 0)
        #expect(
            result.stdout
                == "shipcheck diff: \(Self.release) and \(Self.release) are the same release: no differences in what shipcheck compares\n"
        )
    }

    @Test func releasesOfTwoPlatformsOrAnUnreadableSideAreInputErrors() {
        let apk = Repository.path("Tests/Fixtures/android/Clean.apk")
        let mixed = CommandRunner.shipcheck(["diff", apk, Self.release])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("releases compare only within one platform"))
        let missing = CommandRunner.shipcheck(["diff", apk + ".missing", apk])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Clean.apk.missing: error: no such file or directory"))
        // A FIFO named like an .ipa is not opened: reading it would block.
        let directory = TemporaryDirectory("shipcheck-cli-diff-fifo")
        let fifo = directory.path + "/App.ipa"
        #expect(SystemCalls.makeFIFO(fifo, 0o600) == 0)
        let pipe = CommandRunner.shipcheck(["diff", fifo, Self.release])
        #expect(pipe.status == 2)
        #expect(pipe.stderr.contains("App.ipa: error: not a regular file or directory (FIFO)"))
        // A link named on the command line is followed; one that loops is an error naming it.
        let latest = directory.path + "/latest.ipa"
        try? FileManager.default.createSymbolicLink(atPath: latest, withDestinationPath: Self.release)
        #expect(CommandRunner.shipcheck(["diff", Self.previous, latest]).status == 1)
        try? FileManager.default.createSymbolicLink(atPath: directory.path + "/a.ipa", withDestinationPath: "b.ipa")
        try? FileManager.default.createSymbolicLink(atPath: directory.path + "/b.ipa", withDestinationPath: "a.ipa")
        let loop = CommandRunner.shipcheck(["diff", directory.path + "/a.ipa", Self.release])
        #expect(loop.status == 2 && loop.stderr.contains("a.ipa: error: a symbolic link that dangles or loops"))
        let folder = CommandRunner.shipcheck(["diff", Repository.path("Samples"), Self.release])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("not a release artifact shipcheck compares"))
    }

    @Test func jsonHoldsTheComparisonWithExactSizesAndTheReport() throws {
        let result = CommandRunner.shipcheck(["diff", "--format", "json", Self.previous, Self.release])
        #expect(result.status == 1)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let comparison = try #require(document["comparison"] as? [String: Any])
        let identity = try #require(comparison["identity"] as? [[String: Any]])
        #expect(
            identity.contains {
                $0["name"] as? String == "build" && $0["old"] as? String == "8" && $0["new"] as? String == "7"
            })
        let report = try #require(document["report"] as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["ruleID"] as? String == "previous-build-not-increased" })
    }

    /// The size table's figures are the zip's own: its totals are the sums of what `unzip -Z -l`
    /// lists for each release, compressed (download) and uncompressed (install).
    @Test(.needsELF, arguments: ["ipa", "apk"])
    func sizesAreWhatUnzipLists(_ kind: String) throws {
        let (old, new) =
            kind == "ipa"
            ? (Self.previous, Self.release)
            : (
                Repository.path("Tests/Fixtures/android/Clean.apk"),
                Repository.path("Tests/Fixtures/android/Planted.apk")
            )
        let result = CommandRunner.shipcheck(["diff", "--format", "json", old, new])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let total = try #require((document["comparison"] as? [String: Any])?["total"] as? [String: Any])
        for (side, path) in [("old", old), ("new", new)] {
            let listed = try ReferenceSizes.zipEntries(path).values
            let sizes = try #require(total[side] as? [String: Any])
            #expect(sizes["download"] as? Int == listed.reduce(0) { $0 + Int($1.compressed) }, "\(side)")
            #expect(sizes["install"] as? Int == listed.reduce(0) { $0 + Int($1.uncompressed) }, "\(side)")
        }
    }

    @Test func markdownAndSarifFitAPullRequestAndCodeScanning() throws {
        let markdown = CommandRunner.shipcheck(["diff", "--format", "markdown", Self.previous, Self.release])
        #expect(markdown.status == 1)
        #expect(markdown.stdout.hasPrefix("### shipcheck diff: "))
        #expect(markdown.stdout.contains("| build | 8 | 7 |"))
        #expect(markdown.stdout.contains("| error | `previous-build-not-increased` |"))
        let sarif = CommandRunner.shipcheck(["diff", "--format", "sarif", Self.previous, Self.release])
        #expect(sarif.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["runs"] != nil && sarif.stdout.contains("previous-devices-dropped"))
    }

    /// The gate with a previous release: the artifact's own findings re-judged against it (the
    /// kept SDK's missing signature is a warning), the previous-release rules' findings added.
    @Test func binaryAndAuditJudgeTheReleaseAgainstThePreviousOne() {
        let binary = CommandRunner.shipcheck(["binary", "--no-heading", "--previous", Self.previous, Self.release])
        #expect(binary.status == 1)
        #expect(binary.stdout.contains("[previous-build-not-increased]"))
        let signature = binary.stdout.split(separator: "\n").first { $0.hasSuffix("[preflight-sdk-signature]") }
        #expect(signature?.contains(": warning: ") == true, "\(signature ?? "no signature finding")")
        #expect(signature?.contains("Starscream is kept from the previous release") == true)
        // The configuration's `previous:` and `binaries:`, relative to the audited root.
        let directory = TemporaryDirectory("shipcheck-cli-previous")
        for (name, path) in [("previous.ipa", Self.previous), ("build/App.ipa", Self.release)] {
            directory.write(name, bytes: Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()))
        }
        directory.write(".shipcheck.yml", "previous: previous.ipa\nbinaries: [build/App.ipa]\n")
        let audit = CommandRunner.shipcheck(["audit", "--no-cache", "--no-heading", "."], in: directory.path)
        #expect(audit.status == 1, "\(audit.stderr)")
        #expect(audit.stdout.contains("[previous-build-not-increased]"))
        let two = CommandRunner.shipcheck(["binary", "--previous", Self.previous, Self.release, Self.release + "x"])
        #expect(two.status == 2)
        #expect(two.stderr.contains("a previous release is compared with one release artifact, and 2 are given"))
    }
}
