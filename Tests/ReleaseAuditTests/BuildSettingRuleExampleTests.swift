import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import ReleaseAudit

@Suite struct BuildSettingRuleExampleTests {
    static let rules: [any BuildSettingRule.Type] = RuleRegistry.rules.compactMap { $0 as? any BuildSettingRule.Type }

    /// Each example — a `project.pbxproj`, an `.xcconfig` with the XcodeGen spec that uses it,
    /// a `project.yml`, a `Package.swift` — is written into a tree and audited as `audit` would.
    /// A pre-flight rule checked in projects too (bitcode, dSYMs) keeps its artifact examples for
    /// the bundle tests.
    @Test(arguments: rules.map { $0.description.examples(where: { !$0.isArtifactExample }) })
    func examplesDriveTheRule(rule: RuleDescription) {
        // Every example is audited with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = RuleExampleVerifier.verify(rule) { root in
            RuleOrders.result(of: RuleRegistry.rules, differences: &differences) { rules in
                scan(root, with: BuildSettingsCheck(rules: rules, configuration: Configuration()))
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func findingNamesTargetLineAndHowToFix() throws {
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "App",
                targets: [
                    .target(name: "Core"),
                    .executableTarget(
                        name: "App",
                        swiftSettings: [.define("DEBUG"), .define("BETA", .when(configuration: .debug))]
                    ),
                ]
            )
            """
        let findings = PackageManifestAudit(rules: Self.rules, debugOnlyFlags: ["BETA"]).audit(
            source: manifest, path: "Package.swift")
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.ruleID == "release-defines-debug")
        #expect(finding.message.contains("target 'App'"))
        #expect(finding.message.contains("swiftSettings"))
        #expect(
            finding.location
                == .source(SourceLocation(path: "Package.swift", line: 9, column: 29, endLine: 9, endColumn: 45)))
        #expect(finding.fixHint?.contains(".when(configuration: .debug)") == true)
    }

    @Test func configuredDebugOnlyFlagsAreCheckedToo() {
        let manifest =
            #".target(name: "A", swiftSettings: [.define("INTERNAL_MENU"), .unsafeFlags(["-DINTERNAL_MENU"])])"#
        #expect(PackageManifestAudit(rules: Self.rules).audit(source: manifest, path: "Package.swift").isEmpty)
        #expect(
            PackageManifestAudit(rules: Self.rules, debugOnlyFlags: ["INTERNAL_MENU"]).audit(
                source: manifest, path: "Package.swift"
            ).count == 2)
    }
}

@Suite struct BaselineTests {
    func finding(_ path: String, line: Int, snippet: String) -> Finding {
        Finding(
            ruleID: "preview-outside-debug", severity: .error, message: "m",
            location: .source(SourceLocation(path: path, line: line, column: 1)), snippet: snippet)
    }

    @Test func onlyNewFindingsSurviveAfterLinesMove() throws {
        let directory = TemporaryDirectory()
        let old = Report(
            findings: finalized([
                finding("B.swift", line: 10, snippet: "#Preview(\"one\")"),
                finding("A.swift", line: 3, snippet: "#Preview(\"two\")")
            ]))
        try Baseline(findings: old.findings).write(to: directory.path + "/baseline.json")

        // Unrelated edits moved both old findings; one new finding appeared.
        let now = Report(
            findings: finalized([
                finding("B.swift", line: 40, snippet: "#Preview(\"one\")"),
                finding("A.swift", line: 9, snippet: "#Preview(\"two\")"),
                finding("A.swift", line: 30, snippet: "#Preview(\"three\")")
            ]))
        let baseline = try Baseline.load(directory.path + "/baseline.json")
        let fresh = baseline.newFindings(in: now.findings)
        #expect(fresh.map(\.snippet) == ["#Preview(\"three\")"])
    }

    @Test func fileIsSortedAndStable() throws {
        let report = Report(
            findings: finalized([
                finding("Z.swift", line: 1, snippet: "z"), finding("A.swift", line: 1, snippet: "a")
            ]))
        let first = Baseline(findings: report.findings).serialized()
        let second = Baseline(findings: report.findings.reversed()).serialized()
        #expect(first == second)
        let aIndex = try #require(first.range(of: "A.swift")), zIndex = try #require(first.range(of: "Z.swift"))
        #expect(aIndex.lowerBound < zIndex.lowerBound)
    }

    @Test func corruptBaselineIsAnInputError() {
        let directory = TemporaryDirectory()
        directory.write("bad.json", "{\"version\": 1, \"findings\": 3}")
        #expect(throws: InputError.self) { try Baseline.load(directory.path + "/bad.json") }
        directory.write("future.json", "{\"version\": 99, \"tool\": \"shipcheck\", \"findings\": []}")
        #expect(throws: InputError.self) { try Baseline.load(directory.path + "/future.json") }
    }
}
