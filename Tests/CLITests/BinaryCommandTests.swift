import Foundation
import ShipcheckTestSupport
import Testing

/// The real binary on the leak samples: exit codes, formats, bad inputs.
@Suite(.needsELF) struct BinaryCommandTests {
    static var samples: String { Repository.sampleBinaries }

    @Test func leakingReleaseBinaryFailsTheGateWithExitOne() {
        let result = CommandRunner.shipcheck(["binary", Self.samples + "/release-wmo-stripped/App"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("AppLib.PublicCard_Previews"))
        #expect(result.stdout.contains("[binary-xctest-case]"))
    }

    @Test func sarifListsTheBinaryRules() throws {
        let result = CommandRunner.shipcheck(["binary", "--format", "sarif", Self.samples + "/onone/App"])
        #expect(result.status == 1)
        let sarif = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(sarif != nil)
        #expect(result.stdout.contains("binary-preview-macro"))
    }

    @Test func corruptAndMissingInputsExitTwoButOthersAreStillReported() throws {
        let directory = TemporaryDirectory("shipcheck-cli-binary")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/onone/App")))
        bytes.removeLast(bytes.count / 2)
        let damaged = directory.write("damaged", bytes: bytes)
        let result = CommandRunner.shipcheck([
            "binary", damaged, directory.path + "/missing", Self.samples + "/release-wmo/App"
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("damaged: error: corrupt ELF file"))
        #expect(result.stderr.contains("missing: error: no such file or directory"))
        #expect(result.stdout.contains("AppLib.PublicCard_Previews"))
    }

    /// Without paths, `binaries:` globs are expanded as the audit expands them (relative to the
    /// current directory); a pattern that matches nothing is an input error naming it.
    @Test func configuredBinariesAreExpandedLikeTheAudits() {
        let directory = TemporaryDirectory("shipcheck-cli-binary-globs")
        directory.write(
            "build/App",
            bytes: Array(
                (try? Data(contentsOf: URL(fileURLWithPath: Self.samples + "/release-wmo-stripped/App"))) ?? Data()))
        directory.write(".shipcheck.yml", "binaries: [\"build/*\", \"missing/**/App\"]\n")
        let result = CommandRunner.shipcheck(["binary"], in: directory.path)
        #expect(result.status == 2)
        #expect(result.stdout.contains("build/App:") && result.stdout.contains("[binary-xctest-case]"))
        #expect(result.stderr.contains("missing/**/App: error: no files match"))
        directory.write(".shipcheck.yml", "rules: {}\n")
        let none = CommandRunner.shipcheck(["binary"], in: directory.path)
        #expect(none.status == 2 && none.stderr.contains("list them under `binaries:`"))
    }

    /// A link named on the command line (`latest.ipa`) is followed to the artifact; one that
    /// loops is an input error naming it.
    @Test func aLinkNamedOnTheCommandLineIsFollowed() throws {
        let directory = TemporaryDirectory("shipcheck-cli-binary-link")
        let latest = directory.path + "/latest.ipa"
        try FileManager.default.createSymbolicLink(
            atPath: latest, withDestinationPath: Repository.path(Repository.demoIPA))
        let followed = CommandRunner.shipcheck(["binary", "--no-heading", latest])
        #expect(followed.status == 1, "\(followed.stderr)")
        #expect(followed.stdout.contains("[bundle-debug-dylib]"))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/a.ipa", withDestinationPath: "b.ipa")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/b.ipa", withDestinationPath: "a.ipa")
        let loop = CommandRunner.shipcheck(["binary", directory.path + "/a.ipa"])
        #expect(loop.status == 2 && loop.stderr.contains("a.ipa: error: a symbolic link that dangles or loops"))
    }

    @Test func disablingEveryFailingRuleInConfigGivesExitZero() {
        let directory = TemporaryDirectory("shipcheck-cli-binary-config")
        let config = directory.write(
            ".shipcheck.yml",
            """
            rules:
              binary-preview-conformance: off
              binary-xctest-case: off
              binary-swift-testing-record: off
              binary-test-library-dependency: warning
            """)
        let result = CommandRunner.shipcheck(["binary", "--config", config, Self.samples + "/release-wmo/App"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            CommandRunner.shipcheck(["binary", "--strict", "--config", config, Self.samples + "/release-wmo/App"])
                .status == 1)
    }

    @Test func symbolsListsDemangledNamesAndArchiveMembers() {
        let result = CommandRunner.shipcheck([
            "symbols", "--defined-only", "--grep", "MockNetworkService", Self.samples + "/onone/libAppLib.a"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("libAppLib.a(Fixtures.o): "))
        #expect(result.stdout.contains("AppLib.MockNetworkService.fetch(Swift.String) -> Swift.String"))
    }

    @Test func symbolsCSVAndBadInput() {
        let csv = CommandRunner.shipcheck([
            "symbols", "-f", "csv", "--demangle", "none", Self.samples + "/onone/libSwiftUI.so"
        ])
        #expect(csv.status == 0)
        #expect(
            csv.stdout.hasPrefix("path,member,value,size,letter,type,binding,visibility,section,mangled,demangled\n"))
        let directory = TemporaryDirectory("shipcheck-cli-symbols")
        let text = directory.write("notes.txt", "not elf")
        let bad = CommandRunner.shipcheck(["symbols", text])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("notes.txt: error: not an ELF file"))
        #expect(CommandRunner.shipcheck(["symbols", "--defined-only", "--undefined-only", text]).status == 2)
    }
}
