import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// What each Mach-O fixture plants (Tests/Fixtures/macho/README.md), found exactly: every planted
/// leak once, nothing else (the notes of binary-build-facts are checked on their own).
@Suite struct MachOLeakTests {
    /// A planted finding: its rule and a text its snippet or message contains.
    struct Planted: Hashable, CustomStringConvertible {
        var rule: String
        var text: String
        var description: String { "\(rule) \(text)" }

        init(_ rule: String, _ text: String) {
            self.rule = rule
            self.text = text
        }
    }

    static let previews: [Planted] = [
        Planted("binary-preview-conformance", "AppLib.ContentView_Previews: SwiftUI.PreviewProvider"),
        Planted("binary-preview-conformance", "AppLib.PublicCard_Previews: SwiftUI.PreviewProvider"),
        Planted("binary-preview-conformance", "AppLib.SampleModifier: SwiftUI.PreviewModifier"),
        Planted("binary-preview-macro", "#Preview at ContentView.swift:23:1"),
        Planted("binary-previewable-wrapper", "from the #Preview at ContentView.swift:23:1")
    ]
    static let mocks: [Planted] = [
        Planted("binary-mock-symbol", "AppLib.MockNetworkService"),
        Planted("binary-mock-symbol", "AppLib.ContentView_Previews"),
        Planted("binary-mock-symbol", "AppLib.PublicCard_Previews")
    ]
    static let strings: [Planted] = [
        Planted("binary-fixture-string", "/Users/alice/Projects/App/Preview Content/users.json"),
        Planted("binary-fixture-string", "Lorem ipsum dolor sit amet, consectetur")
    ]
    static let testCode: [Planted] = [
        Planted("binary-xctest-case", "AppTestSupport.LoginTestCase"),
        Planted("binary-swift-testing-record", "swift-testing 'test' record")
    ]
    /// The test frameworks the executables load: one finding per file, whatever its slices.
    static let linkedTestFrameworks = Planted(
        "preflight-test-code-linked",
        "links XCTest: @rpath/XCTest.framework/XCTest (LC_LOAD_DYLIB); Swift Testing: @rpath/Testing.framework/Testing (LC_LOAD_DYLIB); "
            + "XCTest's Swift support library: @rpath/libXCTestSwiftSupport.dylib (LC_LOAD_WEAK_DYLIB), and imports XCTest / Swift Testing symbols"
    )
    /// What each slice of an executable plants.
    static let appSlice = previews + mocks + strings + testCode
    static let app = appSlice + [linkedTestFrameworks]

    private func audit(_ fixture: String, architecture: String? = nil) -> CheckResult {
        BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules, architecture: architecture).run(
            paths: [Repository.machOFixture(fixture)])
    }

    /// Every failure and warning matches one planted finding, and every planted one is found once.
    private func expectExactly(
        _ findings: [Finding], _ planted: [Planted], _ label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let leaks = findings.filter { $0.severity != .note }
        var unmatched = planted
        var unexpected: [String] = []
        for finding in leaks {
            if let index = unmatched.firstIndex(where: {
                $0.rule == finding.ruleID
                    && (finding.snippet?.contains($0.text) == true || finding.message.contains($0.text))
            }) {
                unmatched.remove(at: index)
            } else {
                unexpected.append("\(finding.ruleID) \(finding.message)")
            }
        }
        #expect(unmatched.isEmpty, "\(label): not found: \(unmatched)", sourceLocation: sourceLocation)
        #expect(unexpected.isEmpty, "\(label): false findings: \(unexpected)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "App-macos", "App-macos-strip-x", "App-macos-stripped", "App-ios", "App-ios-offset", "App-ios-arm64e",
        "App-ios-strip-x", "App-ios-stripped"
    ])
    func executablesReportEveryPlantedLeakAndNothingElse(_ fixture: String) {
        let result = audit(fixture)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        expectExactly(result.findings, Self.app, fixture)
        // The build machine's path is a fact about the build: a note, not a leak.
        #expect(
            result.findings.filter { $0.ruleID == "binary-build-paths" }.map(\.message)
                == ["absolute build path \"/home/builder/fixtures/sample.json\" in __TEXT,__cstring"])
        let record = result.findings.first { $0.ruleID == "binary-swift-testing-record" }
        // The accessor is a local symbol: named while the symbol table has it.
        let named = !fixture.contains("strip")
        #expect(
            record?.message.contains("for @Test sampleFixtureLoads in AppTestSupport") == named,
            "\(record?.message ?? "no record")")
    }

    @Test func universalFileReportsEverySliceByName() {
        let result = audit("App-universal")
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        for architecture in ["arm64", "x86_64"] {
            let slice = result.findings.filter {
                if case .binary(let place) = $0.location { place.architecture == architecture } else { false }
            }
            expectExactly(slice, Self.appSlice, "App-universal[\(architecture)]")
        }
        // The pre-flight finding is about the file: once, naming no slice.
        let wholeFile = result.findings.filter {
            if case .binary(let place) = $0.location { place.architecture == nil } else { false }
        }
        expectExactly(wholeFile, [Self.linkedTestFrameworks], "App-universal")
        // The slices' findings are told apart in baselines and code scanning.
        var fingerprinted = result.findings
        Fingerprinter.assign(&fingerprinted)
        #expect(Set(fingerprinted.map(\.fingerprint)).count == fingerprinted.count)
    }

    @Test func archSelectsOneSliceAndAMissingSliceIsAnError() {
        let arm64 = audit("App-universal", architecture: "arm64")
        #expect(arm64.inputErrors.isEmpty)
        expectExactly(arm64.findings, Self.app, "App-universal --arch arm64")
        let missing = audit("App-universal", architecture: "arm64e")
        #expect(missing.findings.isEmpty)
        #expect(missing.inputErrors.map(\.message) == ["has no arm64e slice (--arch); it holds x86_64, arm64"])
        let thin = audit("App-ios", architecture: "x86_64")
        #expect(thin.inputErrors.map(\.message) == ["is arm64, not x86_64 (--arch)"])
    }

    @Test(arguments: ["libAppLib.dylib", "libAppLib-stripped.dylib"])
    func dylibsReportPreviewsMocksAndStrings(_ fixture: String) {
        let result = audit(fixture)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        expectExactly(result.findings, Self.previews + Self.mocks + Self.strings, fixture)
    }

    @Test func bundleReportsItsTestCode() {
        let result = audit("AppTests.bundle")
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        expectExactly(
            result.findings,
            [
                Planted("binary-xctest-case", "AppTestSupport.LoginTestCase"),
                Planted("binary-swift-testing-record", "for @Test sampleFixtureLoads in AppTestSupport"),
                Planted(
                    "preflight-test-code-linked",
                    "links XCTest: @rpath/XCTest.framework/XCTest (LC_LOAD_DYLIB), and imports XCTest / Swift Testing symbols 'OBJC_CLASS_$_XCTestCase'"
                )
            ], "AppTests.bundle")
    }

    /// Objects: metadata through descriptor symbols, as for ELF objects (arm64 and arm64e).
    @Test(arguments: ["AppLib.o", "AppLib-arm64e.o"])
    func objectsReportPreviewsThroughDescriptorSymbols(_ fixture: String) {
        let result = audit(fixture)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        expectExactly(result.findings, Self.previews + Self.mocks, fixture)
    }

    /// 32-bit structures read like 64-bit ones: a watch app's arm64_32 slice beside its arm64
    /// one, the arm64_32 image with DYLD_CHAINED_PTR_32 fixups and stripped, and armv7k, armv7,
    /// armv7s and i386 objects in one universal file. Each slice reports what it plants, by name.
    @Test(arguments: [
        ("WatchApp-universal", ["arm64_32", "arm64"]), ("WatchApp-arm64_32-chained", [nil]),
        ("WatchApp-arm64_32-stripped", [nil]), ("AppLib-32bit.o", ["armv7k", "armv7", "armv7s", "i386"])
    ])
    func thirtyTwoBitAndWatchSlicesReportWhatTheyPlant(_ fixture: String, _ architectures: [String?]) {
        let result = audit(fixture)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let planted = fixture.hasSuffix(".o") ? Self.previews + Self.mocks : Self.previews + Self.mocks + Self.strings
        for architecture in architectures {
            let slice = result.findings.filter {
                if case .binary(let place) = $0.location { place.architecture == architecture } else { false }
            }
            expectExactly(slice, planted, "\(fixture)[\(architecture ?? "thin")]")
        }
        #expect(result.findings.filter { $0.severity != .note }.count == planted.count * architectures.count)
    }

    /// A BSD archive (`#1/` long names, `__.SYMDEF`) with Mach-O members and an ELF member
    /// (where the ELF reader is not built, that member alone is an error and the others are audited).
    @Test func archiveMembersOfEitherFormatAreAuditedByName() {
        let result = audit("libAppTestSupport.a")
        if ELFSupport.isBuilt {
            #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        } else {
            #expect(
                result.inputErrors.map(\.description).map {
                    $0.contains("(Fixtures-linux.o): error: ELF support not built")
                } == [true], "\(result.inputErrors)")
        }
        func member(_ name: String) -> [Finding] {
            result.findings.filter { if case .binary(let place) = $0.location { place.member == name } else { false } }
        }
        expectExactly(
            member("AppTestSupport-LoginTestCase.o"),
            [Planted("binary-test-library-dependency", "autolinks the test framework (-framework XCTest)")],
            "LoginTestCase member")
        expectExactly(member("Fixtures.o"), Self.strings, "Mach-O Fixtures member")
        expectExactly(member("Fixtures-linux.o"), ELFSupport.isBuilt ? Self.strings : [], "ELF Fixtures member")
        #expect(
            member("Fixtures.o").contains { $0.message.contains("in __TEXT,__oslogstring") }, "another C-string section"
        )
        #expect(
            result.findings.count == member("AppTestSupport-LoginTestCase.o").count + member("Fixtures.o").count
                + member("Fixtures-linux.o").count)
    }

    @Test func cleanDylibHasNoFindingsButItsNotes() {
        let result = audit("libClean.dylib")
        #expect(result.inputErrors.isEmpty)
        expectExactly(result.findings, [], "libClean.dylib")
        #expect(!result.findings.isEmpty && result.findings.allSatisfy { $0.ruleID == "binary-build-facts" })
    }

    /// binary-build-facts on Mach-O: UUID, platform / minimum OS / SDK, signature, encryption.
    @Test func buildFactsNameUUIDPlatformSignatureAndEncryption() {
        func notes(_ fixture: String) -> [String] {
            audit(fixture).findings.filter { $0.ruleID == "binary-build-facts" }.map(\.message)
        }
        let macos = notes("App-macos")
        #expect(macos.contains { $0.hasPrefix("uuid ") && $0.count == 41 })
        #expect(macos.contains { $0.hasPrefix("built for macOS 14.0 (SDK 14.5)") })
        #expect(macos.contains { $0.hasPrefix("code signature present (") })
        let ios = notes("App-ios")
        #expect(ios.contains { $0.hasPrefix("built for iOS 17.0 (SDK 17.5)") })
        #expect(ios.contains("no code signature: this image is unsigned"))
        #expect(ios.contains("not encrypted (LC_ENCRYPTION_INFO_64, cryptid 0)"))
        #expect(notes("AppLib.o").allSatisfy { !$0.contains("code signature") }, "objects are never signed: no note")
        let watch = notes("WatchApp-arm64_32-chained")
        #expect(watch.contains { $0.hasPrefix("built for watchOS 9.0 (SDK 10.2)") }, "\(watch)")
        #expect(watch.contains("not encrypted (LC_ENCRYPTION_INFO, cryptid 0)"), "the 32-bit command")
    }

    @Test func codeSignatureBytesAreExposed() throws {
        let file = try BinaryFile(path: Repository.machOFixture("App-macos"))
        let image = try #require(file.images.first as? MachOImage)
        let signature = try #require(image.codeSignature)
        // A SuperBlob: magic CSMAGIC_EMBEDDED_SIGNATURE (0xfade0cc0), big-endian.
        #expect(signature.prefix(4).array == [0xFA, 0xDE, 0x0C, 0xC0])
        #expect(image.codeSignatureRange?.count == signature.count)
        #expect(try BinaryFile(path: Repository.machOFixture("App-ios")).images.first?.codeSignature == nil)
    }

    /// A file handed over as bytes (an entry read out of a zip) reads like the file on disk, and
    /// its findings name the path the caller gave.
    @Test func bytesInMemoryReadLikeTheFile() throws {
        let bytes = HostileBytes.read(Repository.machOFixture("App-universal"))
        let file = try BinaryFile(bytes: bytes, path: "App.ipa/Payload/App.app/App")
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).inspect(file)
        #expect(result.inputErrors.isEmpty)
        // The pre-flight rules read a whole artifact, not one file handed over as bytes.
        #expect(
            result.findings.count == audit("App-universal").findings.filter { !$0.ruleID.hasPrefix("preflight-") }.count
        )
        #expect(result.findings.allSatisfy { $0.location.path == "App.ipa/Payload/App.app/App" })
    }
}

/// A file's bytes, for tests that damage or move them.
enum HostileBytes {
    static func read(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path) ?? Data())
    }
}
