import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import SourceScan

@Suite struct DevelopmentAssetsTests {
    private let unwrapped = "import SwiftUI\n\nstruct Mock {}\n"

    private func project(_ line: String) -> String {
        ExampleProject.pbxproj(assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \(line);")
    }

    @Test(arguments: [
        #""\"App/Preview Content\"""#,
        #""$(SRCROOT)/App/Preview\\ Content""#,
        #""${PROJECT_DIR}/App/Preview\\ Content Other""#,
        #""'App/Preview Content' $(inherited)""#,
        "(\n\t\t\t\t\t\"\\\"App/Preview Content\\\"\",\n\t\t\t\t)"
    ])
    func pbxprojValueForms(_ value: String) {
        let result = scan([
            "App.xcodeproj/project.pbxproj": project(value), "App/Preview Content/Mock.swift": unwrapped,
            "Other/.keep": ""
        ])
        #expect(
            result.findings.filter { $0.ruleID == "dev-asset-outside-debug" }.map(\.location.line) == [3], "\(value)")
    }

    @Test func unquotedPathAndProjectInASubfolder() {
        let result = scan([
            "ios/App.xcodeproj/project.pbxproj": project("App/PreviewContent"),
            "ios/App/PreviewContent/Mock.swift": unwrapped,
            "App/PreviewContent/NotThisOne.swift": unwrapped
        ])
        #expect(result.findings.map(\.location.path) == ["ios/App/PreviewContent/Mock.swift"])
    }

    @Test func emptyValueIsNoPathNotTheProjectRoot() {
        let result = scan(["App.xcodeproj/project.pbxproj": project("\"\""), "App/Mock.swift": unwrapped])
        #expect(result.findings.isEmpty)
    }

    @Test func missingPathIsReportedAtTheSetting() throws {
        let result = scan(["App.xcodeproj/project.pbxproj": project("\"\\\"App/Preview Content\\\"\"")])
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.ruleID == "dev-asset-path-missing")
        #expect(finding.location == .source(SourceLocation(path: "App.xcodeproj/project.pbxproj", line: 42, column: 5)))
        #expect(
            finding.message.contains("'App/Preview Content'")
                && finding.message.contains("target App, configuration Debug"))
        // Release says `$(inherited)` and nothing below it sets the path: no path there.
        #expect(!finding.message.contains("configuration Release"))
    }

    private var projectWithBaseConfiguration: String {
        ExampleProject.pbxproj(assetPathsLine: "")
            .replacingOccurrences(
                of: "\t\t\tname = Debug;\n\t\t};\n\t\tA10000000000000000000021",
                with:
                    "\t\t\tname = Debug;\n\t\t\tbaseConfigurationReference = A10000000000000000000030 /* App.xcconfig */;\n\t\t};\n\t\tA10000000000000000000021"
            )
            .replacingOccurrences(
                of: "/* End PBXGroup section */",
                with:
                    "\t\tA10000000000000000000030 /* App.xcconfig */ = {isa = PBXFileReference; path = Config/App.xcconfig; sourceTree = \"<group>\"; };\n/* End PBXGroup section */"
            )
            .replacingOccurrences(
                of: "\t\t\tchildren = (\n\t\t\t);",
                with: "\t\t\tchildren = (\n\t\t\t\tA10000000000000000000030,\n\t\t\t);")
    }

    @Test func xcconfigBaseConfigurationWithInclude() {
        let result = scan([
            "App.xcodeproj/project.pbxproj": projectWithBaseConfiguration,
            "Config/App.xcconfig": "// App settings\n#include \"Shared.xcconfig\"\n#include? \"Local.xcconfig\"\n",
            "Config/Shared.xcconfig": "DEVELOPMENT_ASSET_PATHS = Fixtures/Previews\n",
            "Fixtures/Previews/Mock.swift": unwrapped
        ])
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        #expect(result.findings.map(\.location.path) == ["Fixtures/Previews/Mock.swift"])
    }

    /// CocoaPods' support files and a user's local override are generated, not committed.
    @Test func missingBaseConfigurationAndIncludeAreNotInputErrors() {
        let withBase = scan([
            "App.xcodeproj/project.pbxproj": projectWithBaseConfiguration, "A.swift": "#Preview { A() }\n"
        ])
        #expect(withBase.inputErrors.isEmpty && withBase.findings.count == 1)
        let withInclude = scan([
            "App.xcodeproj/project.pbxproj": projectWithBaseConfiguration,
            "Config/App.xcconfig": "#include \"Local-USER.xcconfig\"\nDEVELOPMENT_ASSET_PATHS = Mocks\n",
            "Mocks/M.swift": "let m = 1\n"
        ])
        #expect(withInclude.inputErrors.isEmpty)
        #expect(withInclude.findings.map(\.location.path) == ["Mocks/M.swift"])
    }

    @Test func standaloneXCConfigAndXcodeGenSpec() {
        let result = scan([
            "project.yml":
                "name: App\ntargets:\n  App:\n    type: application\n    settings:\n      base:\n        DEVELOPMENT_ASSET_PATHS: \"\\\"App/Preview Content\\\"\"\n",
            "App/Preview Content/Mock.swift": unwrapped,
            "Other/project.yml":
                "name: Other\ntargets:\n  Other:\n    settings:\n      configs:\n        Debug:\n          DEVELOPMENT_ASSET_PATHS: Gone\n",
            "Configs/Base.xcconfig": "DEVELOPMENT_ASSET_PATHS = $(SRCROOT)/Mocks\n",
            // Relative to the nearest folder with a project (here the root's project.yml).
            "Mocks/Fake.swift": unwrapped
        ])
        #expect(
            result.findings.sorted(by: Finding.readingOrder).map {
                "\($0.location.path):\($0.location.line ?? 0) \($0.ruleID)"
            } == [
                "App/Preview Content/Mock.swift:3 dev-asset-outside-debug",
                "Mocks/Fake.swift:3 dev-asset-outside-debug",
                "Other/project.yml:7 dev-asset-path-missing"
            ])
    }

    @Test func configDevelopmentPathsAndImportsOutsideDebug() {
        var configuration = Configuration()
        configuration.developmentPaths = GlobList(["**/Fixtures/**"])
        let result = scan(
            [
                "Support/Fixtures/Wrapped.swift":
                    "import Foundation\n@testable import App\n#if DEBUG\nlet a = 1\n#endif\n",
                "Support/Fixtures/Leaky.swift":
                    "import Foundation\n#if DEBUG\nlet a = 1\n#endif\n#if os(iOS)\nfunc leak() {}\n#endif\n"
            ], configuration: configuration)
        #expect(
            result.findings.map { "\($0.location.path):\($0.location.line ?? 0)" } == ["Support/Fixtures/Leaky.swift:6"]
        )
        #expect(result.findings.first?.message.contains("when os(iOS)") == true)
    }
}
