import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import XcodeProject

/// The sample app's project: an Xcode-shaped pbxproj committed under Samples/App.
private let samplePBXProj = Repository.path("Samples/App/ShipcheckSample.xcodeproj/project.pbxproj")

@Suite struct PBXProjectReaderTests {
    @Test func readsTheProjectTargetsConfigurationsAndSettingLines() throws {
        let project = try PBXProjectReader.read(
            path: samplePBXProj, displayPath: "ShipcheckSample.xcodeproj/project.pbxproj")
        #expect(project.projectName == "ShipcheckSample")
        #expect(project.configurations.map(\.name) == ["Debug", "Release"])
        #expect(project.targets.map(\.name) == ["ShipcheckSample"])
        let target = try #require(project.targets.first)
        #expect(target.configurations.map(\.name) == ["Debug", "Release"])
        let text = try String(contentsOfFile: samplePBXProj, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Every setting's line holds its key: checked against the text, for every configuration.
        for configuration in project.configurations + target.configurations {
            #expect(!configuration.settings.isEmpty)
            for setting in configuration.settings {
                let line = try #require(setting.line, "\(setting.key) has no line")
                let column = try #require(setting.column)
                let written = lines[line - 1].utf8.dropFirst(column - 1)
                #expect(
                    String(decoding: written, as: UTF8.self).hasPrefix(setting.key + " = ")
                        || String(decoding: written, as: UTF8.self).hasPrefix("\"" + setting.key),
                    "\(setting.key) at \(line):\(column)")
            }
        }
        let debug = try #require(project.configurations.first { $0.name == "Debug" })
        #expect(debug.setting("GCC_PREPROCESSOR_DEFINITIONS")?.value == .list(["DEBUG=1", "$(inherited)"]))
        #expect(debug.setting("SWIFT_OPTIMIZATION_LEVEL")?.value == .string("-Onone"))
        let assets = try #require(target.configurations.first?.setting("DEVELOPMENT_ASSET_PATHS"))
        #expect(assets.value.words == ["App/Preview Content"])
    }

    @Test func baseConfigurationReferenceThroughGroupsAndConditionalKeys() throws {
        let text = ExampleProject.pbxproj(
            objects: """
                \t\tG1 = {isa = PBXGroup; children = (G2); sourceTree = "<group>"; };
                \t\tG2 /* Config */ = {isa = PBXGroup; children = (F1); path = Config; sourceTree = "<group>"; };
                \t\tF1 /* Base.xcconfig */ = {isa = PBXFileReference; path = Base.xcconfig; sourceTree = "<group>"; };
                \t\tF2 /* Abs.xcconfig */ = {isa = PBXFileReference; path = /opt/Abs.xcconfig; sourceTree = "<absolute>"; };
                \t\tC1 /* Release */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbaseConfigurationReference = F1 /* Base.xcconfig */;
                \t\t\tbuildSettings = {
                \t\t\t\t"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Distribution";
                \t\t\t\tOTHER_SWIFT_FLAGS = "-D DEBUG";
                \t\t\t};
                \t\t\tname = Release;
                \t\t};
                \t\tC2 = {isa = XCBuildConfiguration; baseConfigurationReference = F2; buildSettings = {}; name = Debug; };
                \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1, C2); };
                \t\tP1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (); };

                """, rootObject: "P1")
        let project = try PBXProjectReader.parse(
            Array(text.utf8), file: "ios/App.xcodeproj/project.pbxproj", projectDirectory: "ios")
        let release = try #require(project.configurations.first)
        #expect(release.baseConfigurationPath == "ios/Config/Base.xcconfig")
        #expect(project.configurations.last?.baseConfigurationPath == "/opt/Abs.xcconfig")
        let signing = try #require(release.settings.first { $0.key == "CODE_SIGN_IDENTITY" })
        #expect(signing.condition == "[sdk=iphoneos*]" && signing.line == 12 && signing.column == 5)
        #expect(release.setting("OTHER_SWIFT_FLAGS")?.line == 13)
        #expect(release.setting("CODE_SIGN_IDENTITY") == nil)
    }

    @Test(arguments: ["", "{ objects = { ", "not a plist at all ((", "{ rootObject = X; }"])
    func corruptProjectIsAnInputErrorNamingTheFile(_ text: String) {
        #expect {
            _ = try PBXProjectReader.parse(
                Array(text.utf8), file: "App.xcodeproj/project.pbxproj", projectDirectory: ".")
        } throws: { error in
            (error as? InputError)?.path == "App.xcodeproj/project.pbxproj"
        }
    }
}

@Suite struct BuildSettingValueTests {
    @Test(arguments: [
        ("\"App/Preview Content\"", ["App/Preview Content"]),
        ("App/Preview\\ Content", ["App/Preview Content"]),
        ("A B\tC", ["A", "B", "C"]),
        ("", []),
        ("   ", []),
        ("'single quoted' \"\"", ["single quoted", ""]),
        ("-D DEBUG -DFOO=\"a b\"", ["-D", "DEBUG", "-DFOO=a b"])
    ])
    func splitsLikeXcode(_ text: String, _ words: [String]) {
        #expect(BuildSettingWords.split(text) == words)
    }

    @Test func listValuesKeepItemsWithSpaces() {
        #expect(
            BuildSettingValue.list(["App/Preview Content", "$(inherited)"]).words == [
                "App/Preview Content", "$(inherited)"
            ])
    }

    @Test func expansion() {
        let variables = ["SRCROOT": "ios", "TARGET_NAME": "App", "PRODUCT_NAME": "$(TARGET_NAME)", "LOOP": "$(LOOP)x"]
        #expect(
            BuildSettingExpansion.expand("$(SRCROOT)/Preview Content", variables: variables) == "ios/Preview Content")
        #expect(BuildSettingExpansion.expand("${SRCROOT}/$(PRODUCT_NAME)", variables: variables) == "ios/App")
        #expect(BuildSettingExpansion.expand("$SRCROOT/x", variables: variables) == "ios/x")
        #expect(BuildSettingExpansion.expand("$(PRODUCT_NAME:lower)", variables: variables) == "app")
        #expect(BuildSettingExpansion.expand("$(UNKNOWN)/x", variables: variables) == "$(UNKNOWN)/x")
        #expect(BuildSettingExpansion.expand("$(LOOP)", variables: variables).hasSuffix("x"))
        #expect(XcodePath.resolve("../Shared/./A", relativeTo: "ios/App") == "ios/Shared/A")
        #expect(XcodePath.resolve("/abs/A", relativeTo: "ios") == "/abs/A")
    }
}

@Suite struct XCConfigReaderTests {
    @Test func includesInOrderWithLinesAndOptionalIncludes() throws {
        let directory = TemporaryDirectory()
        directory.write(
            "Config/App.xcconfig",
            "// App\n#include \"Shared/Base.xcconfig\"\n#include? \"Local.xcconfig\"\n  SWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) BETA // comment\nOTHER_SWIFT_FLAGS[config=Release] = -DDEBUG\n"
        )
        directory.write("Config/Shared/Base.xcconfig", "SWIFT_ACTIVE_COMPILATION_CONDITIONS = DEBUG\n")
        let config = try XCConfigReader.read(path: directory.path + "/Config/App.xcconfig")
        #expect(config.files.count == 2)
        #expect(
            config.settings.map(\.key) == [
                "SWIFT_ACTIVE_COMPILATION_CONDITIONS", "SWIFT_ACTIVE_COMPILATION_CONDITIONS", "OTHER_SWIFT_FLAGS"
            ])
        #expect(config.settings.map { $0.line ?? 0 } == [1, 4, 5])
        #expect(config.settings[0].file.hasSuffix("Config/Shared/Base.xcconfig"))
        #expect(config.settings[1].column == 3)
        #expect(config.setting("SWIFT_ACTIVE_COMPILATION_CONDITIONS")?.value == .string("$(inherited) BETA"))
        #expect(config.settings[2].condition == "[config=Release]")
    }

    @Test func aTrailingSemicolonIsNotPartOfTheValue() throws {
        let directory = TemporaryDirectory()
        directory.write("Mac.xcconfig", "SDKROOT = macosx;\nENABLE_TESTABILITY = YES ; \n")
        let config = try XCConfigReader.read(path: directory.path + "/Mac.xcconfig")
        #expect(config.settings.map(\.value) == [.string("macosx"), .string("YES")])
    }

    @Test func cyclesAreInputErrorsAndMissingIncludesAreRecorded() throws {
        let directory = TemporaryDirectory()
        directory.write("A.xcconfig", "#include \"B.xcconfig\"\n")
        directory.write("B.xcconfig", "X = 1\n#include \"A.xcconfig\"\n")
        directory.write("C.xcconfig", "#include \"Missing.xcconfig\"\n")
        #expect { try XCConfigReader.read(path: directory.path + "/A.xcconfig") } throws: { error in
            let error = error as? InputError
            return error?.message.contains("cycle") == true && error?.line == 2
        }
        let missing = try XCConfigReader.read(path: directory.path + "/C.xcconfig")
        #expect(missing.missingIncludes.map { "\($0.value.text):\($0.line ?? 0)" } == ["Missing.xcconfig:1"])
    }
}

@Suite struct XcodeGenReaderTests {
    @Test func projectAndTargetSettingsPerConfiguration() throws {
        let text = """
            name: App
            configs:
              Debug: debug
              AppStore: release
            settings:
              SWIFT_VERSION: "5.9"
            targets:
              App:
                type: application
                configFiles:
                  AppStore: Config/Store.xcconfig
                settings:
                  base:
                    ENABLE_TESTABILITY: true
                    OTHER_SWIFT_FLAGS: [-DFOO, -DBAR]
                  configs:
                    AppStore:
                      SWIFT_ACTIVE_COMPILATION_CONDITIONS: DEBUG
            """
        let project = try XcodeGenReader.parse(text, file: "project.yml", projectDirectory: ".")
        #expect(project.configurations.map(\.name) == ["Debug", "AppStore"])
        #expect(project.configurations[0].setting("SWIFT_VERSION")?.line == 6)
        let target = try #require(project.targets.first)
        let store = try #require(target.configurations.first { $0.name == "AppStore" })
        #expect(store.setting("ENABLE_TESTABILITY")?.value == .string("YES"))
        #expect(store.setting("OTHER_SWIFT_FLAGS")?.value.words == ["-DFOO", "-DBAR"])
        #expect(store.setting("SWIFT_ACTIVE_COMPILATION_CONDITIONS")?.line == 18)
        #expect(store.baseConfigurationPath == "Config/Store.xcconfig")
        #expect(
            target.configurations.first { $0.name == "Debug" }?.setting("SWIFT_ACTIVE_COMPILATION_CONDITIONS") == nil)
    }
}

@Suite struct EffectiveBuildSettingsTests {
    @Test func inheritedChainsAcrossXCConfigProjectAndTarget() throws {
        let project = XcodeProject(
            kind: .pbxproj, file: "A.xcodeproj/project.pbxproj", projectDirectory: "ios", projectName: "A",
            configurations: [
                BuildConfiguration(
                    id: "P", name: "Release",
                    settings: [
                        BuildSetting(
                            key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS", value: .string("$(inherited) PROJECT"),
                            file: "pbx", line: 10)
                    ], baseConfigurationPath: "ios/Base.xcconfig")
            ],
            targets: [
                XcodeTarget(
                    id: "T", name: "App",
                    configurations: [
                        BuildConfiguration(
                            id: "TR", name: "Release",
                            settings: [
                                BuildSetting(
                                    key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS",
                                    value: .list(["$(inherited)", "TARGET"]), file: "pbx", line: 20)
                            ])
                    ])
            ])
        let xcconfig = XCConfig(
            path: "ios/Base.xcconfig",
            settings: [
                BuildSetting(
                    key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS", value: .string("DEBUG"), file: "ios/Base.xcconfig",
                    line: 3)
            ], files: ["ios/Base.xcconfig"])
        let settings = EffectiveBuildSettings(
            project: project, target: project.targets.first, configurationName: "Release",
            xcconfigs: ["ios/Base.xcconfig": xcconfig])
        let resolved = try #require(settings.resolve("SWIFT_ACTIVE_COMPILATION_CONDITIONS"))
        #expect(resolved.words == ["DEBUG", "PROJECT", "TARGET"])
        #expect(resolved.assignments.map { $0.line ?? 0 } == [3, 10, 20])
        #expect(settings.variables["SRCROOT"] == "ios" && settings.variables["TARGET_NAME"] == "App")
        #expect(settings.resolve("NOT_SET") == nil)
    }
}
