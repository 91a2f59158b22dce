import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import XcodeProject

/// Which files are test code: by the targets that compile them (pbxproj, XcodeGen, SwiftPM),
/// else by path conventions.
@Suite struct TestScopeTests {
    /// An app target and a unit-test target sharing `Shared/Launcher.swift`, a UI-test target
    /// compiling an Xcode 16 synchronized folder.
    static let pbxproj = ExampleProject.pbxproj(
        objects: """
            \t\tG1 = {isa = PBXGroup; children = (G2, G3, G4, S1); sourceTree = "<group>"; };
            \t\tG2 /* App */ = {isa = PBXGroup; children = (F1); path = App; sourceTree = "<group>"; };
            \t\tG3 /* AppTests */ = {isa = PBXGroup; children = (F2); path = AppTests; sourceTree = "<group>"; };
            \t\tG4 /* Shared */ = {isa = PBXGroup; children = (F3); path = Shared; sourceTree = "<group>"; };
            \t\tS1 /* AppUITests */ = {isa = PBXFileSystemSynchronizedRootGroup; path = AppUITests; sourceTree = "<group>"; };
            \t\tF1 = {isa = PBXFileReference; path = AppMain.swift; sourceTree = "<group>"; };
            \t\tF2 = {isa = PBXFileReference; path = Launcher.swift; sourceTree = "<group>"; };
            \t\tF3 = {isa = PBXFileReference; path = Fixtures.swift; sourceTree = "<group>"; };
            \t\tB1 = {isa = PBXBuildFile; fileRef = F1; };
            \t\tB2 = {isa = PBXBuildFile; fileRef = F2; };
            \t\tB3 = {isa = PBXBuildFile; fileRef = F3; };
            \t\tB4 = {isa = PBXBuildFile; fileRef = F3; };
            \t\tP2 = {isa = PBXSourcesBuildPhase; files = (B1, B3); };
            \t\tP3 = {isa = PBXSourcesBuildPhase; files = (B2, B4); };
            \t\tP4 = {isa = PBXSourcesBuildPhase; files = (); };
            \t\tT1 = {isa = PBXNativeTarget; buildPhases = (P2); name = App; productType = "com.apple.product-type.application"; };
            \t\tT2 = {isa = PBXNativeTarget; buildPhases = (P3); name = AppTests; productType = "com.apple.product-type.bundle.unit-test"; };
            \t\tT3 = {isa = PBXNativeTarget; buildPhases = (P4); fileSystemSynchronizedGroups = (S1); name = AppUITests; productType = "com.apple.product-type.bundle.ui-testing"; };
            \t\tP1 = {isa = PBXProject; mainGroup = G1; targets = (T1, T2, T3); };

            """, rootObject: "P1")

    @Test func pbxprojTargetsDecide() throws {
        let project = try PBXProjectReader.parse(
            Array(Self.pbxproj.utf8), file: "ios/App.xcodeproj/project.pbxproj", projectDirectory: "ios")
        #expect(project.targets.map(\.testKind) == [nil, "unit-test", "UI-test"])
        #expect(
            project.targets.map(\.sources) == [
                ["ios/App/AppMain.swift", "ios/Shared/Fixtures.swift"],
                ["ios/AppTests/Launcher.swift", "ios/Shared/Fixtures.swift"], ["ios/AppUITests"]
            ])
        let tests = TestScope(projects: [project], manifests: [])
        #expect(
            tests.reason(for: "ios/AppTests/Launcher.swift")
                == "target AppTests is a unit-test target (ios/App.xcodeproj/project.pbxproj)")
        #expect(
            tests.reason(for: "ios/AppUITests/Flows/LoginFlow.swift")
                == "target AppUITests is a UI-test target (ios/App.xcodeproj/project.pbxproj)")
        #expect(tests.reason(for: "ios/Shared/Fixtures.swift") == nil, "the app target compiles it too")
        #expect(tests.reason(for: "ios/App/AppMain.swift") == nil)
    }

    @Test func xcodeGenTypesAndSources() throws {
        let spec = """
            name: App
            targets:
              AppChecks:
                sources:
                  - path: AppChecks
                  - Shared
                type: bundle.unit-test
              AppUITests:
                sources: AppUITests
                type: bundle.ui-testing
              App:
                sources: [App, Shared]
                type: application
            """
        let project = try XcodeGenReader.parse(spec, file: "project.yml", projectDirectory: ".")
        let tests = TestScope(projects: [project], manifests: [])
        #expect(tests.reason(for: "AppChecks/Launcher.swift") == "target AppChecks is a unit-test target (project.yml)")
        #expect(tests.reason(for: "AppUITests/Flow.swift") == "target AppUITests is a UI-test target (project.yml)")
        #expect(tests.reason(for: "Shared/Util.swift") == nil)
        #expect(tests.reason(for: "App/AppTests.swift") == nil, "the app target compiles it, whatever its name")
    }

    @Test func swiftPMTestTargetsWithDefaultAndCustomPaths() {
        let manifest = """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(
                name: "Feed",
                targets: [
                    .target(name: "Feed", dependencies: [.product(name: "Yams", package: "Yams")]),
                    .testTarget(name: "FeedTests", dependencies: [.target(name: "Feed")]),
                    .testTarget(
                        name: "FeedChecks",
                        dependencies: ["Feed"],
                        path: "Checks/FeedChecks"
                    ),
                ]
            )
            """
        let tests = TestScope(projects: [], manifests: [("Packages/Feed/Package.swift", manifest)])
        #expect(
            tests.reason(for: "Packages/Feed/Tests/FeedTests/ItemTests.swift")
                == "target FeedTests is a SwiftPM test target (Packages/Feed/Package.swift)")
        #expect(
            tests.reason(for: "Packages/Feed/Checks/FeedChecks/Mocks.swift")
                == "target FeedChecks is a SwiftPM test target (Packages/Feed/Package.swift)")
        #expect(tests.reason(for: "Packages/Feed/Sources/Feed/FeedSpec.swift") == nil, "a library target compiles it")
    }

    /// A generated manifest with thousands of targets, the first never closed: read in one
    /// pass (a quadratic reader would take minutes here), what is readable is read.
    @Test func hostileManifestsAreReadInOnePass() {
        let targets = (0..<5_000).map { ".testTarget(name: \"T\($0)\", dependencies: [.target(name: \"Core\")])," }
        let closed = PackageTargets("let package = Package(targets: [\n" + targets.joined(separator: "\n") + "\n])\n")
        #expect(closed.targets.count == 5_000 && closed.targets.allSatisfy(\.isTest), "dependencies are not targets")
        let unclosed = PackageTargets(".target(name: \"Open\", path: \"Src\"\n" + targets.joined(separator: "\n"))
        #expect(unclosed.targets == [PackageTargets.Target(name: "Open", path: "Src", isTest: false)])
    }

    @Test(arguments: [
        ("Tests/App/Scenes/Launcher.test.swift", "path convention: a Tests/ folder"),
        ("App/LoginTests.swift", "path convention: a *Tests.swift file name"),
        ("App/login.test.swift", "path convention: a *.test.swift file name"),
        ("App/LoginSpec.swift", "path convention: a *Spec.swift file name"),
        ("AppUITests/Flows/Login.swift", "path convention: a *Tests/ folder (AppUITests)")
    ])
    func pathConventionsForFilesInNoTarget(_ path: String, _ reason: String) {
        #expect(TestScope(projects: [], manifests: []).reason(for: path) == reason)
    }

    @Test(arguments: [
        "App/Tests.swift", "App/Spec.swift", "App/ABTestsView.swift", "App/Inspector.swift", "Testsuite/View.swift"
    ])
    func productionNamesAreNotTestScope(_ path: String) {
        #expect(TestScope(projects: [], manifests: []).reason(for: path) == nil)
    }
}
