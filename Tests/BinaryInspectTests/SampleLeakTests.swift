import BinaryInspect
import ShipcheckCore
import ShipcheckFrontend
import Testing

/// What survives each build of Samples/Binaries (see Samples/Binaries/EXPECTED.md).
@Suite(.serialized, .needsELF) struct SampleLeakTests {
    private func findings(_ variant: String, _ file: String = "App") -> [Finding] {
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [
            SampleBinaries.path(variant, file)
        ])
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        return result.findings
    }

    private func snippets(_ findings: [Finding], _ rule: String) -> Set<String> {
        Set(findings.filter { $0.ruleID == rule }.compactMap(\.snippet))
    }

    @Test(arguments: ["onone", "release-nonwmo"])
    func unoptimisedAndNonWMOBuildsKeepEveryPreview(_ variant: String) {
        let found = findings(variant)
        #expect(
            snippets(found, "binary-preview-conformance") == [
                "AppLib.ContentView_Previews: SwiftUI.PreviewProvider",
                "AppLib.PublicCard_Previews: SwiftUI.PreviewProvider",
                "AppLib.SampleModifier: SwiftUI.PreviewModifier"
            ])
        let macro = found.filter { $0.ruleID == "binary-preview-macro" }
        #expect(macro.count == 1)
        #expect(macro.first?.message.contains("#Preview at ContentView.swift:24:1") == true)
        #expect(
            found.contains {
                $0.ruleID == "binary-previewable-wrapper" && $0.message.contains("ContentView.swift:24:1")
            })
    }

    @Test(arguments: ["release-wmo", "release-wmo-stripped"])
    func wholeModuleReleaseDropsInternalPreviewsButNotPublicOnes(_ variant: String) {
        let found = findings(variant)
        #expect(
            snippets(found, "binary-preview-conformance") == [
                "AppLib.PublicCard_Previews: SwiftUI.PreviewProvider",
                "AppLib.SampleModifier: SwiftUI.PreviewModifier"
            ])
        #expect(!found.contains { $0.ruleID == "binary-preview-macro" })
    }

    @Test(arguments: ["onone", "release-wmo", "release-wmo-stripped", "release-nonwmo"])
    func testCodeIsFoundInEveryBuild(_ variant: String) {
        let found = findings(variant)
        #expect(snippets(found, "binary-xctest-case") == ["AppTestSupport.LoginTestCase"])
        #expect(found.filter { $0.ruleID == "binary-swift-testing-record" }.count == 1)
        #expect(snippets(found, "binary-test-library-dependency") == ["libXCTest.so", "libTesting.so"])
        #expect(snippets(found, "binary-mock-symbol").contains("AppLib.MockNetworkService"))
        #expect(!snippets(found, "binary-mock-symbol").contains("AppLib.StubbornRetryPolicy"))
        // One warning per pattern (two Preview Content paths, one placeholder), and the build
        // machine's path as a note.
        #expect(found.filter { $0.ruleID == "binary-fixture-string" }.map { $0.related?.count ?? 1 } == [2, 1])
        #expect(snippets(found, "binary-build-paths") == ["/home/builder/work/app/Fixtures/sample.json"])
    }

    @Test func strippedBinaryHasNoSymbolTableYetTheSameLeaks() throws {
        let stripped = findings("release-wmo-stripped").filter { $0.severity == .error }
        let unstripped = findings("release-wmo").filter { $0.severity == .error }
        #expect(stripped.map(\.ruleID).sorted() == unstripped.map(\.ruleID).sorted())
        #expect(try ListedSymbol.of(SampleBinaries.path("release-wmo-stripped"), options: SymbolListOptions()).isEmpty)
        // Unstripped findings say what the leak costs; stripped ones say why they cannot.
        #expect(
            unstripped.first { $0.ruleID == "binary-xctest-case" }?.message.contains("bytes of code and data") == true)
        #expect(stripped.first { $0.ruleID == "binary-xctest-case" }?.message.contains("stripped") == true)
    }

    @Test func swiftTestingRecordIsNamedAfterTheTestFunction() {
        let record = findings("onone").first { $0.ruleID == "binary-swift-testing-record" }
        #expect(record?.message.contains("@Test sampleFixtureLoads in AppTestSupport") == true)
    }

    @Test func archiveMembersAreAuditedWithTheirNames() {
        let found = findings("onone", "libAppTestSupport.a")
        let autolink = found.filter { $0.ruleID == "binary-test-library-dependency" }
        #expect(!autolink.isEmpty)
        #expect(found.allSatisfy { if case .binary(let place) = $0.location { place.member != nil } else { false } })
        #expect(found.contains { $0.ruleID == "binary-swift-testing-record" })
    }

    @Test func objectFilesUseDescriptorSymbols() {
        let found = findings("onone", "AppLib.objects/ContentView.o")
        #expect(
            snippets(found, "binary-preview-conformance").contains(
                "AppLib.PublicCard_Previews: SwiftUI.PreviewProvider"))
        #expect(found.contains { $0.ruleID == "binary-preview-macro" && $0.message.contains("ContentView.swift:24:1") })
    }

    @Test func directoriesAreSearchedForELFFilesByMagic() {
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [
            SampleBinaries.output + "/release-wmo"
        ])
        #expect(result.inputErrors.isEmpty)
        #expect(result.filesScanned >= 5)  // App, two archives, two stand-in frameworks, objects
        #expect(result.findings.contains { $0.location.path.hasSuffix("/App") })
    }

    @Test func notesCarryBuildIDToolchainAndDebugSections() {
        let notes = findings("onone").filter { $0.ruleID == "binary-build-facts" }.map(\.message)
        #expect(notes.contains { $0.hasPrefix("build-id ") })
        #expect(notes.contains { $0.contains("clang version") })
        #expect(notes.contains { $0.hasPrefix("not stripped") })
        #expect(!findings("release-wmo-stripped").contains { $0.message.hasPrefix("not stripped") })
    }
}
