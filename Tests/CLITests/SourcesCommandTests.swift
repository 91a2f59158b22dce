import Foundation
import ShipcheckTestSupport
import Testing

/// `shipcheck sources` end to end, through the real binary.
@Suite struct SourcesCommandTests {
    private static var repositoryRoot: String { Repository.root }

    /// `path:line: rule` for each finding of a JSON report.
    private func findings(_ json: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let list = try #require(object["findings"] as? [[String: Any]])
        return list.map {
            "\($0["path"] as? String ?? ""):\($0["line"] as? Int ?? 0): \($0["ruleID"] as? String ?? "")"
        }
    }

    @Test func sampleAppReportsExactlyWhatEXPECTEDmdLists() throws {
        let expectedFile = try String(contentsOfFile: Self.repositoryRoot + "/Samples/App/EXPECTED.md", encoding: .utf8)
        let block = try #require(
            expectedFile.components(separatedBy: "<!-- sources:begin -->").last?.components(
                separatedBy: "<!-- sources:end -->"
            ).first)
        let expected = block.split(separator: "\n").map(String.init).filter { $0.contains(": ") }
        #expect(expected.count == 10)
        let result = CommandRunner.shipcheck(["sources", "--format", "json", Self.repositoryRoot + "/Samples/App"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try findings(result.stdout) == expected)
    }

    @Test func cleanTreeExitsZeroAndDefaultsToTheCurrentDirectory() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "#if DEBUG\n#Preview { A() }\n#endif\n")
        let result = CommandRunner.shipcheck(["sources"], in: directory.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// A Sourcery mock's stored closures are not reported; its preview is; `--explain` says why,
    /// and `check-generated` in the configuration turns the rule back on.
    @Test func generatedFilesAreExplainedAndCanBeChecked() {
        let directory = TemporaryDirectory()
        directory.write(
            "Mocks/GeneratedMocks.swift",
            """
            // Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery
            // DO NOT EDIT
            import SwiftUI
            enum Hooks { nonisolated(unsafe) static var willTerminate: () -> Void = {} }
            @MainActor func configureHooks() { Hooks.willTerminate = { print("bye") } }
            #Preview { Text("mock") }
            """)
        let result = CommandRunner.shipcheck(["sources", "--explain", "."], in: directory.path)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "Mocks/GeneratedMocks.swift:6:1: error: #Preview is compiled in release builds: not inside #if DEBUG [preview-outside-debug]\n"
        )
        #expect(
            result.stderr.contains(
                """
                Mocks/GeneratedMocks.swift: note: generated (Sourcery header, line 1: "// Generated using Sourcery 2.2.5 — https://github.com/krzysztofzablocki/Sourcery"): \
                not checked by state-built-in-init, dynamic-property-captures-self, unchecked-sendable-closure
                """), "\(result.stderr)")
        directory.write(".shipcheck.yml", "check-generated: [unchecked-sendable-closure]\n")
        let checked = CommandRunner.shipcheck(["sources", "."], in: directory.path)
        #expect(checked.stdout.contains("Mocks/GeneratedMocks.swift:4:45: warning:"), "\(checked.stdout)")
    }

    @Test func textReportPointsAtThePreview() {
        let directory = TemporaryDirectory()
        directory.write("Views/A.swift", "import SwiftUI\n\n#Preview { A() }\n")
        let result = CommandRunner.shipcheck(["sources", directory.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Views/A.swift:3:1: error: #Preview is compiled in release builds: not inside #if DEBUG [preview-outside-debug]"
            ))
    }

    @Test func inputErrorsExitTwoAndOtherFilesAreStillReported() {
        let directory = TemporaryDirectory()
        directory.write("Bad.swift", bytes: Array("#Preview { \"".utf8) + [0xC3, 0x28] + Array("\" }\n".utf8))
        directory.write("Good.swift", "#Preview { A() }\n")
        let result = CommandRunner.shipcheck(["sources", directory.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Bad.swift:1: error: not valid UTF-8"))
        #expect(result.stdout.contains("Good.swift:1:1"))
    }

    @Test func strictAndConfiguredSeverities() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "#Preview { A() }\n")
        directory.write(".shipcheck.yml", "rules:\n  preview-outside-debug: warning\n")
        #expect(CommandRunner.shipcheck(["sources", directory.path]).status == 0)
        #expect(CommandRunner.shipcheck(["sources", "--strict", directory.path]).status == 1)
    }

    @Test func fixRewritesThenReportsWhatIsLeft() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "import SwiftUI\n#Preview { A() }\n")
        directory.write("Dev/Mock.swift", "let mock = 1\n")
        directory.write(".shipcheck.yml", "development-paths: [Dev]\n")
        let result = CommandRunner.shipcheck(["sources", "--fix", directory.path])
        #expect(directory.read("A.swift") == "import SwiftUI\n#if DEBUG\n#Preview { A() }\n#endif\n")
        #expect(result.stderr.contains("wrapped 1 preview in #if DEBUG in 1 file"))
        // The development file is not something --fix changes: still reported, exit 1.
        #expect(result.status == 1)
        #expect(result.stdout.contains("Dev/Mock.swift:1:1") && !result.stdout.contains("A.swift:"))
        #expect(directory.read("Dev/Mock.swift") == "let mock = 1\n")
    }

    @Test func dryRunPrintsADiffAndWritesNothing() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "#Preview { A() }\n")
        let result = CommandRunner.shipcheck(["sources", "--fix", "--dry-run", directory.path])
        #expect(result.status == 1)
        #expect(
            result.stdout == "--- a/A.swift\n+++ b/A.swift\n@@ -1 +1,3 @@\n+#if DEBUG\n #Preview { A() }\n+#endif\n"
                || result.stdout
                    == "--- a/A.swift\n+++ b/A.swift\n@@ -1,1 +1,3 @@\n+#if DEBUG\n #Preview { A() }\n+#endif\n"
        )
        #expect(directory.read("A.swift") == "#Preview { A() }\n")
        directory.write("A.swift", "#if DEBUG\n#Preview { A() }\n#endif\n")
        let clean = CommandRunner.shipcheck(["sources", "--fix", "--dry-run", directory.path])
        #expect(clean.status == 0 && clean.stdout.isEmpty)
    }

    @Test func dryRunDiffGoesWhereTheReportGoes() {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "#Preview { A() }\n")
        let result = CommandRunner.shipcheck([
            "sources", "--fix", "--dry-run", "--output", directory.path + "/fix.diff", directory.path
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(directory.read("fix.diff")?.hasPrefix("--- a/A.swift\n+++ b/A.swift\n") == true)
        #expect(directory.read("A.swift") == "#Preview { A() }\n")
    }

    @Test func dryRunWithoutFixIsAUsageError() {
        #expect(CommandRunner.shipcheck(["sources", "--dry-run", "."]).status == 2)
    }

    @Test func missingDevelopmentAssetPathInAProject() throws {
        let directory = TemporaryDirectory()
        let pbxproj = try String(
            contentsOfFile: Self.repositoryRoot + "/Samples/App/ShipcheckSample.xcodeproj/project.pbxproj",
            encoding: .utf8)
        directory.write("ShipcheckSample.xcodeproj/project.pbxproj", pbxproj)
        let result = CommandRunner.shipcheck(["sources", "--format", "json", directory.path])
        #expect(result.status == 1)
        // One finding per assignment: the Debug and the Release configuration each set it.
        let assignmentLines = pbxproj.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.contains("DEVELOPMENT_ASSET_PATHS") }.map { $0.offset + 1 }
        #expect(assignmentLines.count == 2)
        #expect(
            try findings(result.stdout)
                == assignmentLines.map { "ShipcheckSample.xcodeproj/project.pbxproj:\($0): dev-asset-path-missing" })
    }
}
