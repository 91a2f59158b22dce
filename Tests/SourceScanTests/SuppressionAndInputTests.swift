import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SourceScan

@Suite struct SuppressionTests {
    @Test func commentOnTheLineAboveWithAReasonSuppresses() {
        #expect(places("// shipcheck:ignore preview-outside-debug -- showcase target\n#Preview { A() }\n").isEmpty)
        // Above the attributes of the declaration form.
        #expect(
            places("// shipcheck:ignore preview-outside-debug -- showcase\n@available(iOS 17, *)\n#Preview { A() }\n")
                .isEmpty)
        // Above the doc comment, or between it and the attributes.
        #expect(
            places(
                "// shipcheck:ignore preview-outside-debug -- showcase\n/// Dark mode.\n@available(iOS 17, *)\n#Preview { A() }\n"
            ).isEmpty)
        #expect(
            places(
                "/// Dark mode.\n// shipcheck:ignore preview-outside-debug -- showcase\n@MainActor\n#Preview { A() }\n"
            ).isEmpty)
        // Several rules in one comment.
        #expect(
            places(
                "/// docs\n// shipcheck:ignore preview-outside-debug, preview-provider-outside-debug -- both\nstruct P: PreviewProvider {}\n"
            ).isEmpty)
    }

    @Test func suppressionWithoutAReasonDoesNotSuppressAndSaysWhy() throws {
        let result = scan(["A.swift": "// shipcheck:ignore preview-outside-debug\n#Preview { A() }\n"])
        let finding = try #require(result.findings.first)
        #expect(finding.message.contains("has no '-- reason'"))
    }

    @Test func suppressionNamesTheRuleAndOnlyCoversTheNextLine() {
        #expect(
            places("// shipcheck:ignore preview-provider-outside-debug -- wrong rule\n#Preview { A() }\n") == [
                "2:1 preview-outside-debug"
            ])
        #expect(
            places("// shipcheck:ignore preview-outside-debug -- too far\n\n#Preview { A() }\n") == [
                "3:1 preview-outside-debug"
            ])
        #expect(
            places("let s = \"// shipcheck:ignore preview-outside-debug -- in a string\"\n#Preview { A() }\n") == [
                "2:1 preview-outside-debug"
            ])
    }

    @Test func configurationDisablesRulesAndExcludesPaths() {
        var configuration = Configuration()
        configuration.ruleSeverities["preview-outside-debug"] = .some(nil)
        #expect(places("#Preview { A() }\n", configuration: configuration).isEmpty)
        configuration = Configuration()
        configuration.ruleSeverities["preview-outside-debug"] = .warning
        #expect(
            scan(["A.swift": "#Preview { A() }\n"], configuration: configuration).findings.map(\.severity) == [.warning]
        )
        configuration = Configuration()
        configuration.exclude = GlobList(["Showcase/**"])
        let result = scan(
            ["Showcase/A.swift": "#Preview { A() }\n", "App/B.swift": "#Preview { B() }\n"],
            configuration: configuration)
        #expect(result.findings.map(\.location.path) == ["App/B.swift"])
    }
}

@Suite struct BadInputTests {
    @Test func invalidUTF8IsAnInputErrorAndOtherFilesAreStillScanned() throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Bad.swift", bytes: Array("let a = 1\n#Preview { Text(\"".utf8) + [0xFF, 0xFE] + Array("\") }\n".utf8))
        directory.write("Good.swift", "#Preview { A() }\n")
        let result = SourceScanner(root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules)
            .run()
        #expect(result.findings.map(\.location.path) == ["Good.swift"])
        let error = try #require(result.inputErrors.first)
        #expect(error.path == "Bad.swift" && error.line == 2 && error.message.contains("UTF-8"))
        #expect(result.filesScanned == 2)
    }

    @Test func unparsableFileIsAnInputErrorAndOtherFilesAreStillScanned() throws {
        let result = scan([
            "Broken.swift": "import SwiftUI\n\nstruct Broken {\n    #Preview { A()\n",
            "Good.swift": "#Preview { A() }\n"
        ])
        #expect(result.findings.map(\.location.path) == ["Good.swift"])
        let error = try #require(result.inputErrors.first)
        #expect(error.path == "Broken.swift" && error.message.contains("does not parse as Swift"))
        #expect(error.line != nil)
    }

    /// A project that never mentions DEVELOPMENT_ASSET_PATHS (and no xcconfig does) cannot
    /// set it: it is not parsed, so not even its corruption is this check's business.
    @Test func projectsThatCannotSetTheSettingAreNotParsed() {
        #expect(scan(["App.xcodeproj/project.pbxproj": "{ objects = { ;;; "]).inputErrors.isEmpty)
        let withXCConfig = scan([
            "App.xcodeproj/project.pbxproj": "{ objects = { ;;; ", "A.xcconfig": "DEVELOPMENT_ASSET_PATHS = X\n"
        ])
        #expect(withXCConfig.inputErrors.map(\.path) == ["App.xcodeproj/project.pbxproj"])
    }

    @Test func filesWithoutPreviewBytesAreNeverParsed() {
        // Broken Swift with no "Preview" anywhere: not parsed, so not reported.
        #expect(scan(["Other.swift": "struct {{{ let"]).inputErrors.isEmpty)
    }

    @Test func corruptProjectIsAnInputErrorNamingTheFile() throws {
        let result = scan([
            "App.xcodeproj/project.pbxproj": "{ objects = { DEVELOPMENT_ASSET_PATHS = ;;; ",
            "A.swift": "#Preview { A() }\n"
        ])
        let error = try #require(result.inputErrors.first)
        #expect(error.path == "App.xcodeproj/project.pbxproj" && error.message.contains("project.pbxproj"))
        #expect(result.findings.count == 1)
    }
}

@Suite struct ManyFilesTests {
    /// A generated tree of 400 files: every seventh has an unwrapped preview, every fifth a
    /// wrapped one, the rest none. The parallel scan reports exactly the unwrapped ones.
    @Test func parallelScanOfAGeneratedTreeReportsExactlyTheUnwrappedPreviews() {
        var files: [String: String] = [:]
        var expected: [String] = []
        for index in 0..<400 {
            let path = "Module\(index % 9)/File\(index).swift"
            var text = "import SwiftUI\n\nstruct View\(index): View { var body: some View { Text(\"\(index)\") } }\n"
            if index % 5 == 0 { text += "\n#if DEBUG\n#Preview { View\(index)() }\n#endif\n" }
            if index % 7 == 0 {
                text += "\n#Preview(\"\(index)\") { View\(index)() }\n"
                expected.append(path)
            }
            files[path] = text
        }
        let result = scan(files)
        #expect(result.filesScanned == 400 && result.inputErrors.isEmpty)
        #expect(result.findings.map(\.location.path).sorted() == expected.sorted())
    }

    @Test func configuredFlagsFromTheConfigurationFile() throws {
        let configuration = try ConfigurationLoader.parse(
            "flags:\n  debug-only: [PREVIEWS]\n  release-set: [APPSTORE]\n",
            file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
        let source =
            "#if PREVIEWS\n#Preview { A() }\n#endif\n#if APPSTORE\n#else\n#Preview { B() }\n#endif\n#if BETA\n#Preview { C() }\n#endif\n"
        #expect(places(source, configuration: configuration) == ["9:1 preview-outside-debug"])
    }
}
