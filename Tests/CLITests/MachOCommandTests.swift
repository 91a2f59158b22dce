import Foundation
import ShipcheckTestSupport
import Testing

/// The real binary on the Mach-O fixtures: slices named in every output, `--arch` on `binary`,
/// `symbols` and `audit`, exit codes.
@Suite struct MachOCommandTests {
    static func fixture(_ name: String) -> String { Repository.machOFixture(name) }

    @Test func universalFileFindingsNameTheirSlice() {
        let result = CommandRunner.shipcheck(["binary", Self.fixture("App-universal")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("App-universal[arm64]:__TEXT,__swift5_proto:"))
        #expect(result.stdout.contains("App-universal[x86_64]:__TEXT,__swift5_proto:"))
        #expect(result.stderr.contains("15 errors, 10 warnings, 8 notes"), "\(result.stderr.suffix(300))")
    }

    @Test func archSelectsASliceAndAMissingOneIsAnInputError() {
        let arm64 = CommandRunner.shipcheck(["binary", "--arch", "arm64", Self.fixture("App-universal")])
        #expect(arm64.status == 1)
        #expect(arm64.stdout.contains("[arm64]") && !arm64.stdout.contains("[x86_64]"))
        let missing = CommandRunner.shipcheck([
            "binary", "--arch", "arm64e", Self.fixture("App-universal"), Self.fixture("App-ios-arm64e")
        ])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("App-universal: error: has no arm64e slice (--arch); it holds x86_64, arm64"),
            "\(missing.stderr)")
        #expect(missing.stdout.contains("App-ios-arm64e:__TEXT,__swift5_proto:"), "the other input is still audited")
    }

    @Test func symbolsListsOneSliceWithArch() {
        let result = CommandRunner.shipcheck([
            "symbols", "--arch", "x86_64", "--defined-only", "--grep", "MockNetworkServiceCMn",
            Self.fixture("App-universal")
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasPrefix("App-universal[x86_64]: ") == true
                || lines.first?.contains("App-universal[x86_64]: ") == true, "\(result.stdout)")
        #expect(result.stdout.contains("nominal type descriptor for AppLib.MockNetworkService"))
    }

    @Test func auditGateChecksMachOArtifactsWithArch() throws {
        let directory = TemporaryDirectory("shipcheck-cli-macho-audit")
        let result = CommandRunner.shipcheck([
            "audit", "--format", "json", "--arch", "x86_64", "--binary", Self.fixture("App-universal"), directory.path
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = document?["findings"] as? [[String: Any]] ?? []
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0["architecture"] as? String == "x86_64" })
        #expect(findings.contains { $0["ruleID"] as? String == "binary-xctest-case" })
    }

    @Test func sarifNamesTheSlice() throws {
        let result = CommandRunner.shipcheck([
            "binary", "--format", "sarif", "--arch", "arm64", Self.fixture("App-universal")
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("\"name\" : \"arm64\"") || result.stdout.contains("\"name\":\"arm64\""),
            "\(result.stdout.prefix(400))")
    }

    /// Pointed at the fixture folder: every Mach-O file and archive is picked by its magic. (Where
    /// the ELF reader is not built, the folder's two ELF files are one error line each, exit 2.)
    @Test func directoryWalkPicksMachOFilesByMagic() {
        let result = CommandRunner.shipcheck(["binary", "--format", "json", Repository.path("Tests/Fixtures/macho")])
        #expect(result.status == (TestPlatform.readsELF ? 1 : 2), "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        let expected = TestPlatform.readsELF ? [] : ["libAppTestSupport.a(Fixtures-linux.o)", "libMockUsage-linux.so"]
        #expect(
            errors.count == expected.count
                && zip(errors, expected).allSatisfy { $0.contains($1) && $0.contains("ELF support not built") },
            "\(result.stderr)")
        for name in ["App-macos", "App-universal", "AppTests.bundle", "libAppTestSupport.a", "AppLib-arm64e.o"] {
            #expect(result.stdout.contains("macho/\(name)\""), "\(name)")
        }
        #expect(
            !result.stdout.contains("libClean.dylib\",\n      \"ruleID\" : \"binary-mock"),
            "the clean dylib has notes only")
    }
}
