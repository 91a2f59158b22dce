import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import ReleaseAudit

/// The Xcode side of the build-settings audit, on small projects written by the tests.
@Suite struct XcodeBuildSettingsAuditTests {
    /// A minimal Xcode-shaped pbxproj: project and one target, Debug and Release, optional base xcconfig.
    static func pbxproj(
        projectRelease: String, targetRelease: String,
        projectDebug: String =
            "SWIFT_ACTIVE_COMPILATION_CONDITIONS = DEBUG;\nSWIFT_OPTIMIZATION_LEVEL = \"-Onone\";\nENABLE_TESTABILITY = YES;",
        targetBase: String? = nil
    ) -> String {
        let fileReference =
            targetBase.map {
                "\t\tAA0000000000000000000009 /* base */ = {isa = PBXFileReference; path = \($0); sourceTree = SOURCE_ROOT; };\n"
            } ?? ""
        let baseLine =
            targetBase == nil ? "" : "\t\t\tbaseConfigurationReference = AA0000000000000000000009 /* base */;\n"
        let objects = """
            \(fileReference)\t\tAA0000000000000000000001 /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tbuildConfigurationList = AA0000000000000000000002;
            \t\t\tmainGroup = AA0000000000000000000008;
            \t\t\ttargets = (AA0000000000000000000003);
            \t\t};
            \t\tAA0000000000000000000008 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            \t\tAA0000000000000000000002 = {isa = XCConfigurationList; buildConfigurations = (AA0000000000000000000004, AA0000000000000000000005); };
            \t\tAA0000000000000000000004 /* Debug */ = {
            \t\t\tisa = XCBuildConfiguration;
            \t\t\tbuildSettings = {
            \(projectDebug)
            \t\t\t};
            \t\t\tname = Debug;
            \t\t};
            \t\tAA0000000000000000000005 /* Release */ = {
            \t\t\tisa = XCBuildConfiguration;
            \t\t\tbuildSettings = {
            \(projectRelease)
            \t\t\t};
            \t\t\tname = Release;
            \t\t};
            \t\tAA0000000000000000000003 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = AA0000000000000000000006; name = App; };
            \t\tAA0000000000000000000006 = {isa = XCConfigurationList; buildConfigurations = (AA000000000000000000000A, AA0000000000000000000007); };
            \t\tAA000000000000000000000A /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {}; name = Debug; };
            \t\tAA0000000000000000000007 /* Release */ = {
            \t\t\tisa = XCBuildConfiguration;
            \(baseLine)\t\t\tbuildSettings = {
            \(targetRelease)
            \t\t\t};
            \t\t\tname = Release;
            \t\t};

            """
        return ExampleProject.pbxproj(objects: objects, rootObject: "AA0000000000000000000001", xcodeHeader: true)
    }

    func audit(_ tree: TemporaryDirectory, configuration: Configuration = Configuration()) -> CheckResult {
        scan(
            tree.path, configuration: configuration,
            with: BuildSettingsCheck(rules: RuleRegistry.rules, configuration: configuration))
    }

    func places(_ result: CheckResult) -> [String] {
        result.findings.map { "\($0.location.path):\($0.location.line ?? 0) \($0.ruleID)" }.sorted()
    }

    @Test func debugConfigurationsAreNotFlagged() {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(projectRelease: "SWIFT_OPTIMIZATION_LEVEL = \"-O\";", targetRelease: "PRODUCT_NAME = App;"))
        let result = audit(tree)
        #expect(result.inputErrors.isEmpty)
        #expect(result.findings.isEmpty, "Debug sets DEBUG, -Onone and testability: all fine")
    }

    @Test func projectLevelDebugIsFollowedThroughInheritedToTheTarget() throws {
        let tree = TemporaryDirectory()
        let text = Self.pbxproj(
            projectRelease: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = \"DEBUG\";",
            targetRelease: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = \"$(inherited) APPSTORE\";")
        tree.write("App.xcodeproj/project.pbxproj", text)
        let projectLine =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("= \"DEBUG\";") }
            ) + 1
        let result = audit(tree)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.ruleID == "release-defines-debug")
        #expect(finding.location.path == "App.xcodeproj/project.pbxproj")
        #expect(finding.location.line == projectLine, "the project-level assignment that introduced DEBUG")
        #expect(finding.message.contains("target App, configuration Release"))
    }

    @Test func targetOverrideWithoutInheritedClearsTheProblem() {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                projectRelease: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = DEBUG;",
                targetRelease: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = APPSTORE;"))
        #expect(audit(tree).findings.isEmpty)
    }

    @Test func everyReleaseSlipInThePbxproj() {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                projectRelease:
                    "OTHER_SWIFT_FLAGS = \"$(inherited) -D DEBUG\";\nGCC_PREPROCESSOR_DEFINITIONS = (\n\"DEBUG=1\",\n\"$(inherited)\",\n);",
                targetRelease:
                    "SWIFT_OPTIMIZATION_LEVEL = \"-Onone\";\nGCC_OPTIMIZATION_LEVEL = 0;\nENABLE_TESTABILITY = YES;"))
        let rules = audit(tree).findings.map(\.ruleID).sorted()
        #expect(
            rules == [
                "release-debug-preprocessor-macro", "release-defines-debug", "release-testability",
                "release-unoptimized", "release-unoptimized"
            ])
    }

    @Test func xcconfigThroughIncludeIsReportedAtTheIncludedLine() throws {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                projectRelease: "", targetRelease: "PRODUCT_NAME = App;", targetBase: "Config/Release.xcconfig"))
        tree.write("Config/Release.xcconfig", "#include \"Base.xcconfig\"\nPRODUCT_NAME = App\n")
        tree.write("Config/Base.xcconfig", "// shared\nSWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) DEBUG\n")
        let result = audit(tree)
        #expect(places(result) == ["Config/Base.xcconfig:2 release-defines-debug"])
    }

    @Test func configuredDebugOnlyFlagsAndReleaseNames() {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(projectRelease: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = STAGING_MENU;", targetRelease: ""))
        #expect(audit(tree).findings.isEmpty)
        var configuration = Configuration()
        configuration.debugOnlyFlags = ["STAGING_MENU"]
        #expect(audit(tree, configuration: configuration).findings.count == 1)
        configuration.releaseConfigurations = ["AppStore"]
        #expect(
            audit(tree, configuration: configuration).findings.isEmpty,
            "Release is not a release configuration when the list says otherwise")
    }

    @Test func archiveActionMakesAnyConfigurationRelease() {
        let tree = TemporaryDirectory()
        tree.write(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(projectRelease: "", targetRelease: "", projectDebug: "ENABLE_TESTABILITY = YES;"))
        tree.write(
            "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme version = "1.7">
               <ArchiveAction
                  buildConfiguration = "Debug"
                  revealArchiveInOrganizer = "YES">
               </ArchiveAction>
            </Scheme>
            """)
        let result = audit(tree)
        #expect(result.findings.map(\.ruleID) == ["release-testability"])
        #expect(result.findings.first?.message.contains("configuration Debug") == true)
    }

    @Test func corruptProjectIsAnInputErrorAndManifestsAreStillAudited() {
        let tree = TemporaryDirectory()
        tree.write("Broken.xcodeproj/project.pbxproj", "{ objects = ( SWIFT_OPTIMIZATION_LEVEL ;")
        tree.write("Package.swift", #".target(name: "A", swiftSettings: [.define("DEBUG")])"#)
        let result = audit(tree)
        #expect(result.inputErrors.count == 1)
        #expect(result.inputErrors.first?.path.contains("Broken.xcodeproj") == true)
        #expect(places(result) == ["Package.swift:1 release-defines-debug"])
    }

    @Test func configuredSeverityAndDisabling() {
        let tree = TemporaryDirectory()
        tree.write(
            "Package.swift",
            #".target(name: "A", swiftSettings: [.define("DEBUG"), .unsafeFlags(["-enable-testing"])])"#)
        var configuration = Configuration()
        configuration.ruleSeverities = ["release-defines-debug": .warning, "release-testability": nil as Severity?]
        let findings = audit(tree, configuration: configuration).findings
        #expect(findings.map(\.ruleID) == ["release-defines-debug"])
        #expect(findings.first?.severity == .warning)
    }
}
