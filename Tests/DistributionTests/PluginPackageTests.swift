import Foundation
import ShipcheckTestSupport
import Testing

/// A tiny package using the generated `shipcheck-plugins` package (the plugins on the packed
/// binary through a `binaryTarget`), built with `swift build` as a user would. Builds in seconds:
/// only the fixture and the plugins compile, no shipcheck or swift-syntax code.
@Suite(.serialized) struct PluginPackageTests {
    static let manifest = """
        // swift-tools-version: 6.1
        import PackageDescription
        let package = Package(
            name: "Fixture",
            dependencies: [.package(path: "PLUGINS")],
            targets: [
                .target(name: "App", plugins: [.plugin(name: "ShipcheckBuildTool", package: "shipcheck-plugins")]),
            ]
        )
        """

    /// A preview outside `#if DEBUG` (`canImport(SwiftUI) && os(Linux)` is no DEBUG guard, and is
    /// false on every platform, so the stand-in `ContentView` never meets the real `#Preview`),
    /// and a preview provider outside `#if DEBUG` beside one inside.
    static let contentView = """
        public struct ContentView {
            public init() {}
        }

        #if canImport(SwiftUI) && os(Linux)
        #Preview {
            ContentView()
        }
        #endif

        """
    static let settings = """
        protocol PreviewProvider {}

        struct Settings {}

        struct Settings_Previews: PreviewProvider {}

        #if DEBUG
        struct Debug_Previews: PreviewProvider {}
        #endif

        """

    func makeFixture() -> TemporaryDirectory {
        let fixture = TemporaryDirectory("shipcheck-plugin-fixture")
        fixture.write(
            "Package.swift", Self.manifest.replacingOccurrences(of: "PLUGINS", with: PackedRelease.shared.pluginPackage)
        )
        fixture.write("Sources/App/ContentView.swift", Self.contentView)
        fixture.write("Sources/App/Settings.swift", Self.settings)
        return fixture
    }

    func build(_ fixture: TemporaryDirectory) -> CommandResult {
        CommandRunner.run("swift", ["build", "--package-path", fixture.path], in: fixture.path)
    }

    @Test func buildToolPluginReportsPlantedPreviewsAsCompilerWarningsIncrementally() {
        let fixture = makeFixture()
        let first = build(fixture)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        let contentWarning = "\(fixture.path)/Sources/App/ContentView.swift:6:1: warning: "
        let settingsWarning = "\(fixture.path)/Sources/App/Settings.swift:5:1: warning: "
        let lines = first.stdout.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix(contentWarning) && $0.hasSuffix("[preview-outside-debug]") },
            "\(first.stdout)")
        #expect(
            lines.contains { $0.hasPrefix(settingsWarning) && $0.hasSuffix("[preview-provider-outside-debug]") },
            "\(first.stdout)")
        #expect(!first.stdout.contains("Settings.swift:8:"), "the DEBUG-only provider was reported")
        #expect(
            !first.stdout.contains("SwiftSyntax") && !first.stdout.contains("Compiling shipcheck"),
            "the user's build compiled shipcheck")

        // Nothing changed: the build system skips the command.
        let second = build(fixture)
        #expect(second.status == 0)
        #expect(!second.stdout.contains("shipcheck sources"), "\(second.stdout)")

        // One file changed (its provider now DEBUG-only): the command runs again and still
        // reports the unchanged file (from its cache) but no longer the fixed one.
        fixture.write(
            "Sources/App/Settings.swift",
            Self.settings.replacingOccurrences(
                of: "struct Settings_Previews: PreviewProvider {}",
                with: "#if DEBUG\nstruct Settings_Previews: PreviewProvider {}\n#endif"))
        let third = build(fixture)
        #expect(third.status == 0)
        #expect(third.stdout.contains("shipcheck sources (App)"))
        #expect(third.stdout.split(separator: "\n").contains { $0.hasPrefix(contentWarning) }, "\(third.stdout)")
        #expect(!third.stdout.contains(settingsWarning), "\(third.stdout)")
    }

    /// The command plugin declares that it writes into the package (macOS's plugin sandbox
    /// refuses `--output` and `--write-baseline` otherwise): SwiftPM asks for that permission
    /// before it runs, here too, and a CI job grants it with the flag.
    @Test func commandPluginRunsTheAuditOnThePrebuiltBinary() {
        let fixture = makeFixture()
        let refused = CommandRunner.run(
            "swift", ["package", "--package-path", fixture.path, "shipcheck", "--no-color"], in: fixture.path)
        #expect(refused.status != 0)
        #expect(
            (refused.stdout + refused.stderr).contains("--allow-writing-to-package-directory"),
            "\(refused.stdout)\(refused.stderr)")
        #expect(!(refused.stdout + refused.stderr).contains("shipcheck audit exited"))

        let result = CommandRunner.run(
            "swift",
            [
                "package", "--package-path", fixture.path, "--allow-writing-to-package-directory",
                "shipcheck", "--no-color", "--format", "sarif", "--output", fixture.path + "/shipcheck.sarif"
            ], in: fixture.path)
        let output = result.stdout + result.stderr
        // The audit fails the gate on the two planted previews (errors outside a build step).
        #expect(result.status != 0)
        #expect(output.contains("shipcheck audit exited with 1"), "\(output)")
        let report = fixture.read("shipcheck.sarif") ?? ""
        #expect(
            report.contains("Sources/App/ContentView.swift") && report.contains("Sources/App/Settings.swift"),
            "\(report.prefix(300))")
    }
}
