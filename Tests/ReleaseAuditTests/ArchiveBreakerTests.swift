import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import SourceScan
import Testing
import XcodeProject

@testable import ReleaseAudit

/// Writes `files` into a fresh directory and runs the archive-breaker analysis on it.
private func analyze(_ files: [String: String], configuration: Configuration = Configuration()) -> CheckResult {
    let directory = TemporaryDirectory("shipcheck-breakers")
    for (path, text) in files { directory.write(path, text) }
    return scan(
        directory.path, configuration: configuration,
        with: ArchiveBreakerCheck(rules: RuleRegistry.rules, configuration: configuration))
}

/// `path:line:column` of each finding, in reading order.
private func places(_ result: CheckResult) -> [String] {
    result.findings.sorted(by: Finding.readingOrder).map { finding in
        guard case .source(let location) = finding.location else { return finding.location.path }
        return "\(location.path):\(location.line):\(location.column)"
    }
}

@Suite struct ArchiveBreakerRuleExampleTests {
    /// The registry decides whether the check runs, as for every check: left out of it, the
    /// rule reports nothing on a rule example that triggers it.
    @Test func theCheckRunsOnlyWhatTheRegistryHolds() throws {
        let example = try #require(ArchiveBreakerRule.description.triggeringExamples.first)
        let tree = TemporaryDirectory("shipcheck-breakers-registry")
        for (path, companion) in example.companions { tree.write(path, companion) }
        tree.write(example.path, try example.unmarked.text)
        let withoutRule = RuleRegistry.rules.filter { $0 != ArchiveBreakerRule.self }
        #expect(
            !scan(tree.path, with: ArchiveBreakerCheck(rules: RuleRegistry.rules, configuration: Configuration()))
                .findings.isEmpty)
        #expect(
            scan(tree.path, with: ArchiveBreakerCheck(rules: withoutRule, configuration: Configuration())).findings
                .isEmpty)
    }

    @Test func examplesDriveTheRule() {
        let rule = ArchiveBreakerRule.description
        #expect(rule.id == "release-references-debug-only" && rule.defaultSeverity == .error)
        #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty)
        let failures = RuleExampleVerifier.verify(rule) { root in
            scan(root, with: ArchiveBreakerCheck(rules: RuleRegistry.rules, configuration: Configuration()))
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}

@Suite struct ArchiveBreakerTests {
    @Test func findingPointsAtTheUseAndNamesTheDeclaration() throws {
        let result = analyze([
            "App/Mocks.swift":
                "import Foundation\n\n#if DEBUG\nstruct MockData {\n    static let sample = \"Ada\"\n}\n#endif\n",
            "App/ContentView.swift": "struct ContentView {\n    let name = MockData.sample\n}\n"
        ])
        #expect(result.inputErrors.isEmpty)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.ruleID == "release-references-debug-only" && finding.severity == .error)
        #expect(
            finding.location
                == .source(
                    SourceLocation(path: "App/ContentView.swift", line: 2, column: 16, endLine: 2, endColumn: 24)))
        #expect(
            finding.message == """
                `MockData` exists only in DEBUG builds (declared at App/Mocks.swift:4) but is used by code compiled in release: \
                the Archive build fails with "cannot find 'MockData' in scope"
                """)
        #expect(finding.snippet == "let name = MockData.sample")
        #expect(finding.identity == "MockData in ContentView.name")
        #expect(finding.fixHint?.contains("#if DEBUG") == true)
    }

    /// A generated file's uses are left out (its declarations still count), unless
    /// `check-generated` names the rule; `--explain` says which files and why.
    @Test func generatedFilesUsesAreNotReported() {
        let files = [
            "App/Mocks.swift": "#if DEBUG\nstruct MockData { static let sample = \"Ada\" }\n#endif\n",
            "App/Generated/Fixtures.swift":
                "// Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery\n// DO NOT EDIT\nlet fixture = MockData.sample\n",
            "App/Screen.swift": "let name = MockData.sample\n"
        ]
        let result = analyze(files)
        #expect(places(result) == ["App/Screen.swift:1:12"])
        #expect(
            result.explanations.map(\.noteDescription) == [
                "App/Generated/Fixtures.swift: note: generated (Sourcery header, line 1: \"// Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery\"): not checked by release-references-debug-only"
            ])
        var configuration = Configuration()
        configuration.checkGenerated = ["release-references-debug-only"]
        let checked = analyze(files, configuration: configuration)
        #expect(places(checked) == ["App/Generated/Fixtures.swift:3:15", "App/Screen.swift:1:12"])
        #expect(checked.explanations.isEmpty)
    }

    /// A release declaration in a generated file still makes the name ambiguous, so a use is not
    /// reported: its declarations are indexed like any other file's.
    @Test func generatedFilesDeclarationsStillCount() {
        let result = analyze([
            "App/Mocks.swift": "#if DEBUG\nstruct MockData {}\n#endif\n",
            "App/Generated/Types.swift": "// @generated\nstruct MockData {}\n",
            "App/Screen.swift": "let data = MockData()\n"
        ])
        #expect(places(result).isEmpty)
    }

    @Test func typeFunctionAndMemberUsesEachGetTheirOwnCompilerError() {
        let result = analyze([
            "Debug.swift": """
            #if DEBUG
            final class FakeClock {}
            func seedDatabase() {}
            #endif
            struct Order {}
            #if DEBUG
            extension Order {
                static let fixture = Order()
            }
            #endif
            """,
            "Release.swift": """
            struct Checkout {
                var clock: FakeClock?
                func start() {
                    seedDatabase()
                    _ = Order.fixture
                }
            }
            """
        ])
        let messages = result.findings.sorted(by: Finding.readingOrder).map(\.message)
        #expect(places(result) == ["Release.swift:2:16", "Release.swift:4:9", "Release.swift:5:19"])
        #expect(messages.count == 3)
        #expect(messages.first?.hasSuffix("\"cannot find type 'FakeClock' in scope\"") == true)
        #expect(messages.dropFirst().first?.hasSuffix("\"cannot find 'seedDatabase' in scope\"") == true)
        #expect(
            messages.last?.hasPrefix("`Order.fixture` exists only in DEBUG builds (declared at Debug.swift:8)") == true)
        #expect(messages.last?.hasSuffix("\"type 'Order' has no member 'fixture'\"") == true)
    }

    @Test func debugOnlyMemberUsedInsideItsOwnTypeIsFound() {
        let result = analyze([
            "Feed.swift": """
            struct Feed {
                #if DEBUG
                static let fixtureItems = ["one"]
                #endif
                static func load() -> [String] { fixtureItems }
            }
            """
        ])
        #expect(places(result) == ["Feed.swift:5:38"])
        #expect(result.findings.first?.identity == "fixtureItems in Feed.load")
    }

    @Test func nestedMembersAreFoundThroughTheirTypeAndItsExtensions() {
        let result = analyze([
            "Feed.swift": """
            struct Feed {
                #if DEBUG
                struct Fixture {}
                #endif
                func first() -> Fixture? { nil }
                var second: Feed.Fixture? { nil }
            }
            enum Env {
                case live
                #if DEBUG
                case staging
                #endif
            }
            """,
            "Other.swift": """
            extension Feed {
                func third() { _ = Fixture() }
            }
            func isStaging(_ env: Env) -> Bool { env == Env.staging }
            """
        ])
        #expect(places(result) == ["Feed.swift:5:21", "Feed.swift:6:22", "Other.swift:2:24", "Other.swift:4:49"])
        let messages = result.findings.sorted(by: Finding.readingOrder).map(\.message)
        #expect(messages[1].hasSuffix("\"'Fixture' is not a member type of 'Feed'\""))
        #expect(messages[3].hasSuffix("\"type 'Env' has no member 'staging'\""))
        #expect(
            result.findings.compactMap(\.identity).sorted() == [
                "Env.staging in isStaging", "Feed.Fixture in Feed.second", "Fixture in Feed.first",
                "Fixture in Feed.third"
            ])
    }

    @Test func debugOnlyOverridesLeaveTheInheritedMemberInRelease() {
        let result = analyze([
            "Cell.swift": """
            class Cell: NSObject {
                #if DEBUG
                override var debugDescription: String { "Cell" }
                #endif
                func log() { print(debugDescription) }
            }
            """
        ])
        #expect(result.findings.isEmpty)
    }

    @Test func guardAndSwitchBindingsShadow() {
        let result = analyze([
            "Shadow.swift": """
            #if DEBUG
            let fixture = 1
            #endif
            func pick(_ values: [Int], _ choice: Int?) -> Int {
                switch choice {
                case let fixture?: return fixture
                case nil: break
                }
                guard let fixture = values.first else { return 0 }
                return fixture
            }
            func unguarded() -> Int { fixture }
            """
        ])
        #expect(places(result) == ["Shadow.swift:12:27"])
    }

    @Test func elseBranchOrAnotherFileDeclaringTheNameMakesItAmbiguous() {
        let result = analyze([
            "Config.swift": "#if DEBUG\nenum Backend { static let url = \"http://localhost\" }\n#endif\n",
            "ReleaseConfig.swift":
                "#if !DEBUG\nenum Backend { static let url = \"https://api.example.com\" }\n#endif\n",
            "Client.swift": "let url = Backend.url\n"
        ])
        #expect(result.findings.isEmpty)
    }

    @Test func configuredDebugOnlyFlagsCount() {
        let files = [
            "Menu.swift": "#if INTERNAL_MENU\nfunc showInternalMenu() {}\n#endif\n",
            "App.swift": "func launch() { showInternalMenu() }\n"
        ]
        #expect(analyze(files).findings.isEmpty)
        var configuration = Configuration()
        configuration.debugOnlyFlags = ["INTERNAL_MENU"]
        #expect(places(analyze(files, configuration: configuration)) == ["App.swift:1:17"])
    }

    @Test func severityComesFromTheConfigurationAndNilDisables() {
        let files = ["A.swift": "#if DEBUG\nlet mock = 1\n#endif\nlet value = mock\n"]
        var configuration = Configuration()
        configuration.ruleSeverities[ArchiveBreakerRule.id] = .some(.warning)
        #expect(analyze(files, configuration: configuration).findings.map(\.severity) == [.warning])
        configuration.ruleSeverities[ArchiveBreakerRule.id] = .some(nil)
        #expect(analyze(files, configuration: configuration).findings.isEmpty)
    }

    @Test func identityIgnoresLinesSoFingerprintsSurviveEdits() {
        let before = analyze(["A.swift": "#if DEBUG\nlet mock = 1\n#endif\nfunc f() -> Int { mock }\n"])
        let after = analyze(["A.swift": "// header\n\n#if DEBUG\nlet mock = 1\n#endif\n\n\nfunc f() -> Int { mock }\n"])
        #expect(before.findings.map(\.identity) == ["mock in f"])
        #expect(
            Report(findings: finalized(before.findings)).findings.map(\.fingerprint)
                == Report(findings: finalized(after.findings)).findings.map(\.fingerprint))
    }

    @Test func filesOverTheSizeCapAreInputErrors() {
        var configuration = Configuration()
        configuration.maxFileSize = 40
        let result = analyze(
            [
                "Big.swift": "#if DEBUG\nlet mock = 1\n#endif\n" + String(repeating: "// padding\n", count: 10),
                "Use.swift": "let value = mock\n"
            ], configuration: configuration)
        #expect(result.inputErrors.map(\.path) == ["Big.swift"])
        #expect(result.findings.isEmpty)
    }

    @Test func invalidUTF8IsAnInputErrorAndOtherFilesStillCount() {
        let directory = TemporaryDirectory("shipcheck-breakers")
        directory.write(
            "Bad.swift", bytes: Array("let a = 1\n#if DEBUG\n".utf8) + [0xFF, 0xFE] + Array("\n#endif\n".utf8))
        directory.write("Mocks.swift", "#if DEBUG\nlet mock = 1\n#endif\n")
        directory.write("Use.swift", "let value = mock\n")
        let result = scan(
            directory.path, with: ArchiveBreakerCheck(rules: RuleRegistry.rules, configuration: Configuration()))
        #expect(result.inputErrors.map(\.path) == ["Bad.swift"])
        #expect(result.inputErrors.first?.line == 3)
        #expect(places(result) == ["Use.swift:1:13"])
    }
}

@Suite struct ArchiveBreakerTargetTests {
    static let manifest =
        "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Kit\")\n"

    @Test func swiftPMTargetsAreSeparateCompilationUnits() {
        let result = analyze([
            "Package.swift": Self.manifest,
            "Sources/Core/Fixtures.swift": "#if DEBUG\npublic let sampleUser = \"Ada\"\n#endif\n",
            "Sources/Core/Profile.swift": "let name = sampleUser\n",
            // Another target: it would need `import Core`, and another module's name is out of scope here.
            "Sources/App/main.swift": "let sampleUser = 3\nprint(sampleUser)\n",
            "Tests/CoreTests/ProfileTests.swift": "func check() { _ = sampleUser }\n"
        ])
        #expect(places(result) == ["Sources/Core/Profile.swift:1:12"])
    }

    @Test func aReleaseDeclarationInAnotherTargetDoesNotHideTheProblem() {
        let result = analyze([
            "Package.swift": Self.manifest,
            "Sources/Core/Fixtures.swift": "#if DEBUG\nlet sampleUser = \"Ada\"\n#endif\nlet name = sampleUser\n",
            "Sources/Other/Users.swift": "let sampleUser = \"Grace\"\n"
        ])
        #expect(places(result) == ["Sources/Core/Fixtures.swift:4:12"])
    }

    @Test func nestedPackagesAndAppFoldersGroupSeparately() {
        let targets = SwiftTargets(swiftFiles: [
            "Package.swift", "Sources/A/a.swift", "Packages/Kit/Package.swift",
            "Packages/Kit/Sources/Net/n.swift", "App/View.swift", "Packages/Kit/README.swift"
        ])
        #expect(targets.target(of: "Sources/A/a.swift") == "Sources/A")
        #expect(targets.target(of: "Packages/Kit/Sources/Net/n.swift") == "Packages/Kit/Sources/Net")
        #expect(targets.target(of: "App/View.swift") == ".")
        #expect(targets.target(of: "Packages/Kit/README.swift") == ".")
        #expect(SwiftTargets.isManifest("Packages/Kit/Package@swift-5.9.swift"))
    }
}

@Suite struct ArchiveBreakerEndToEndTests {
    @Test func xcodeProjectDevelopmentAssetsTree() throws {
        let result = analyze([
            ExampleProject.path: ExampleProject.withPreviewContent,
            "App/Preview Content/PreviewData.swift": """
            import Foundation

            struct PreviewData {
                static let user = "Ada"
                static func makeOrders() -> [String] { [] }
            }

            // Uses inside Development Assets are fine: the whole file goes away together.
            let previewGreeting = PreviewData.user
            """,
            "App/Views/ProfileView.swift": """
            import SwiftUI

            struct ProfileView: View {
                let name: String
                var body: some View {
                    Text(name)
                }
            }

            #Preview {
                ProfileView(name: PreviewData.user)
            }
            """,
            "App/Views/OrdersView.swift": """
            import SwiftUI

            struct OrdersView: View {
                var orders = PreviewData.makeOrders()
                var body: some View {
                    #if DEBUG
                    Text(previewGreeting)
                    #endif
                    List(orders, id: \\.self) { Text($0) }
                }
            }
            """
        ])
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let finding = try #require(result.findings.first)
        #expect(places(result) == ["App/Views/OrdersView.swift:4:18"])
        #expect(
            finding.message.hasPrefix(
                "`PreviewData` exists only in Development Assets, which Archive builds drop (declared at App/Preview Content/PreviewData.swift:3)"
            ))
        #expect(result.filesScanned == 3)
    }

    @Test func developmentPathsFromTheConfigurationCount() {
        var configuration = Configuration()
        configuration.developmentPaths = GlobList(["Fixtures/"])
        let files = [
            "Fixtures/Stub.swift": "enum StubServer { static func start() {} }\n",
            "App/Boot.swift": "func boot() { StubServer.start() }\n"
        ]
        #expect(analyze(files).findings.isEmpty)
        #expect(places(analyze(files, configuration: configuration)) == ["App/Boot.swift:1:15"])
    }
}
