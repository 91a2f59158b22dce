import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `shipcheck audit` as a release job runs it: one report, one exit code, baselines.
@Suite struct AuditCommandTests {
    /// A small app tree with one slip per check.
    static func appTree() -> GitFixture {
        let repository = GitFixture()
        repository.write(
            "App/ContentView.swift",
            """
            import SwiftUI
            struct ContentView: View { var body: some View { Text("hi") } }
            #Preview { ContentView() }
            """)
        repository.write("App/Legacy.swift", "let a = 1\n<<<<<<< HEAD\nlet b = 2\n=======\nlet b = 3\n>>>>>>> topic\n")
        repository.write("Package.swift", #".target(name: "App", swiftSettings: [.define("DEBUG")])"#)
        repository.write("README.md", "Title\n=======\n")
        repository.commitAll("app")
        return repository
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func oneReportOneExitCodeAndASummaryTable() {
        let repository = Self.appTree()
        let result = CommandRunner.shipcheck(["audit", repository.path])
        #expect(result.status == 1)
        let output = lines(result.stdout)
        #expect(
            output.contains {
                $0.hasPrefix("App/ContentView.swift:3:1: error:") && $0.hasSuffix("[preview-outside-debug]")
            })
        #expect(output.contains { $0.hasPrefix("App/Legacy.swift:2:1: error:") && $0.hasSuffix("[conflict-marker]") })
        #expect(output.contains { $0.hasPrefix("Package.swift:1:") && $0.hasSuffix("[release-defines-debug]") })
        #expect(!result.stdout.contains("README.md"), "a Markdown underline is not a conflict")
        #expect(output.count == 3, "piped: one line per finding, nothing else")
        let summary = lines(result.stderr)
        for check in ["sources", "conflicts", "saved queries", "build settings", "archive breakers", "binaries"] {
            #expect(summary.contains { $0.hasPrefix(check + " ") }, "summary row for \(check)")
        }
        #expect(summary.last == "shipcheck: 3 errors, 0 warnings, 0 notes")
        #expect(
            !result.stderr.contains("\r") && !result.stderr.contains("scanning"),
            "no progress line when stderr is not a terminal")
    }

    @Test func cleanTreeExitsZero() {
        let repository = GitFixture()
        repository.write("App/View.swift", "#if DEBUG\n#Preview { V() }\n#endif\n")
        repository.commitAll("clean")
        #expect(CommandRunner.shipcheck(["audit", repository.path]).status == 0)
    }

    @Test func everyFormatParses() throws {
        let repository = Self.appTree()
        let sarif = CommandRunner.shipcheck(["audit", "--format", "sarif", repository.path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == 3)
        let rules =
            (((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])?.compactMap {
                $0["id"] as? String
            } ?? []
        for id in [
            "preview-outside-debug", "conflict-marker", "release-defines-debug", "binary-preview-conformance",
            "saved-query"
        ] {
            #expect(rules.contains(id), "SARIF rule list lacks \(id)")
        }
        let junit = CommandRunner.shipcheck(["audit", "--format", "junit", repository.path])
        #expect(try XMLDocument(data: Data(junit.stdout.utf8)).nodes(forXPath: "//testcase").count == 3)
        let gitlab = CommandRunner.shipcheck(["audit", "--format", "gitlab", repository.path])
        #expect((try JSONSerialization.jsonObject(with: Data(gitlab.stdout.utf8)) as? [Any])?.count == 3)
        let github = CommandRunner.shipcheck(["audit", "--format", "github", repository.path])
        #expect(lines(github.stdout).filter { $0.hasPrefix("::error ") }.count == 3)
        let json = CommandRunner.shipcheck(["audit", "--format", "json", repository.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.count == 8)
        #expect(checks.contains { $0["name"] as? String == "privacy declarations" }, "\(checks)")
        #expect(checks.contains { $0["name"] as? String == "android libraries" }, "\(checks)")
    }

    @Test func baselineReportsOnlyNewFindingsAfterLinesMove() throws {
        let repository = Self.appTree()
        let baseline = repository.path + "/.shipcheck-baseline.json"
        let written = CommandRunner.shipcheck(["audit", "--write-baseline", baseline, repository.path])
        #expect(written.status == 0)
        #expect(written.stderr.contains("recorded 3 findings"))
        let first = try String(contentsOfFile: baseline, encoding: .utf8)

        // Unrelated edits move every finding down; one new preview appears.
        repository.write(
            "App/ContentView.swift",
            """
            import SwiftUI
            // A comment added above.

            struct ContentView: View { var body: some View { Text("hi") } }
            #Preview { ContentView() }
            #Preview("Dark") { ContentView() }
            """)
        repository.write(
            "App/Legacy.swift", "// moved\n\nlet a = 1\n<<<<<<< HEAD\nlet b = 2\n=======\nlet b = 3\n>>>>>>> topic\n")
        let gated = CommandRunner.shipcheck(["audit", "--baseline", baseline, repository.path])
        #expect(gated.status == 1)
        let findings = lines(gated.stdout).filter { $0.contains(": error: ") }
        #expect(findings.count == 1)
        #expect(findings.first?.hasPrefix("App/ContentView.swift:6:1:") == true)
        #expect(gated.stderr.contains("3 findings in the baseline"))

        // Rewriting the same findings gives the same bytes: baselines diff well.
        repository.write(
            "App/ContentView.swift",
            "import SwiftUI\nstruct ContentView: View { var body: some View { Text(\"hi\") } }\n#Preview { ContentView() }\n"
        )
        #expect(CommandRunner.shipcheck(["audit", "--write-baseline", baseline, repository.path]).status == 0)
        #expect(try String(contentsOfFile: baseline, encoding: .utf8) == first)
    }

    /// A baseline tells when it is stale: `--baseline` says how many recorded findings no longer
    /// occur, `--baseline-strict` fails on them, and `--write-baseline` over the file keeps its
    /// order and prints what it added and dropped.
    @Test func staleBaselineIsSaidStrictFailsAndRewritingPrintsTheChange() throws {
        let repository = Self.appTree()
        let baseline = repository.path + "/.shipcheck-baseline.json"
        #expect(CommandRunner.shipcheck(["audit", "--write-baseline", baseline, repository.path]).status == 0)

        // The conflict is resolved: one recorded finding no longer occurs.
        repository.write("App/Legacy.swift", "let a = 1\nlet b = 2\n")
        let gated = CommandRunner.shipcheck(["audit", "--baseline", baseline, repository.path])
        #expect(gated.status == 0, "\(gated.stderr)")
        #expect(
            gated.stderr.contains(
                "shipcheck: 1 finding recorded in the baseline \(baseline) no longer occurs (fixed): drop it with --write-baseline \(baseline)"
            ),
            "\(gated.stderr)")
        let strict = CommandRunner.shipcheck(["audit", "--baseline", baseline, "--baseline-strict", repository.path])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("  fixed: App/Legacy.swift [conflict-marker] "), "\(strict.stderr)")
        #expect(
            strict.stderr.contains(
                "0 errors, 0 warnings, 0 notes; the baseline \(baseline) is stale (--baseline-strict)"),
            "\(strict.stderr)")
        let json = CommandRunner.shipcheck([
            "audit", "--baseline", baseline, "--baseline-strict", "--format", "json", repository.path
        ])
        #expect(
            json.status == 1 && json.stdout.contains("\"exitCode\" : 1"),
            "the report says the run failed too: \(json.stdout)")
        #expect(
            CommandRunner.shipcheck(["audit", "--baseline-strict", repository.path]).status == 2,
            "--baseline-strict needs --baseline")

        // A new preview; the baseline rewritten keeps its order and says what changed.
        repository.write("App/Second.swift", "import SwiftUI\n#Preview { Text(\"2\") }\n")
        let rewritten = CommandRunner.shipcheck(["audit", "--write-baseline", baseline, repository.path])
        #expect(rewritten.status == 0, "\(rewritten.stderr)")
        #expect(rewritten.stderr.contains("updated \(baseline): 1 added, 1 dropped, 2 kept"), "\(rewritten.stderr)")
        let changes = lines(rewritten.stdout)
        #expect(
            changes.count == 2 && changes[0].hasPrefix("+ App/Second.swift [preview-outside-debug] ")
                && changes[1].hasPrefix("- App/Legacy.swift [conflict-marker] "),
            "\(rewritten.stdout)")
        #expect(
            CommandRunner.shipcheck(["audit", "--baseline", baseline, "--baseline-strict", repository.path]).status == 0
        )

        // A file there that is not a baseline is never overwritten.
        repository.write("notes.json", "{\"mine\": true}")
        let refused = CommandRunner.shipcheck([
            "audit", "--write-baseline", repository.path + "/notes.json", repository.path
        ])
        #expect(refused.status == 2 && refused.stderr.contains("not a shipcheck baseline"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: repository.path + "/notes.json", encoding: .utf8) == "{\"mine\": true}")
    }

    @Test func brokenBaselineOrConfigIsExitTwo() {
        let repository = Self.appTree()
        repository.write("bad.json", "not json")
        let badBaseline = CommandRunner.shipcheck([
            "audit", "--baseline", repository.path + "/bad.json", repository.path
        ])
        #expect(badBaseline.status == 2)
        #expect(badBaseline.stderr.contains("bad.json"))
        repository.write(".shipcheck.yml", "binaries: [a\n")
        let badConfig = CommandRunner.shipcheck(["audit", repository.path])
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains(".shipcheck.yml:"))
        #expect(lines(badConfig.stderr).count == 1)
    }

    @Test func missingConfiguredBinaryIsAnInputErrorButTheRestIsReported() {
        let repository = Self.appTree()
        repository.write(".shipcheck.yml", "binaries: [.build/release/App]\n")
        let result = CommandRunner.shipcheck(["audit", repository.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(".build/release/App"))
        #expect(result.stdout.contains("[conflict-marker]"), "the other checks still report")
    }

    @Test func strictFailsOnWarnings() {
        let repository = GitFixture()
        repository.write("Package.swift", #".target(name: "A", swiftSettings: [.unsafeFlags(["-enable-testing"])])"#)
        repository.commitAll("warning only")
        #expect(CommandRunner.shipcheck(["audit", repository.path]).status == 0)
        #expect(CommandRunner.shipcheck(["audit", "--strict", repository.path]).status == 1)
    }
}

/// `make demo`'s own check, in the test suite: the audit of Samples/ reports exactly what
/// Samples/EXPECTED.md lists. One demo at a time: each assembles the demo .ipa anew.
@Suite(.serialized) struct SamplesAuditTests {
    @Test(.needsELF) func demoScriptAgreesWithExpectedList() {
        _ = Repository.demoIPA
        _ = Repository.sampleBinaries
        let result = CommandRunner.run(
            "/bin/bash", [Repository.path("Samples/demo.sh"), CommandRunner.shipcheckPath], in: Repository.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("reported exactly the"))
    }

    /// make demo on a Mac (a shipcheck that reads no ELF): the Apple half, exactly as
    /// Samples/EXPECTED.md lists it without the ELF samples, with ELF said to be Linux-only.
    @Test func demoOnAMacAuditsTheAppleHalf() throws {
        _ = Repository.demoIPA
        let scratch = TemporaryDirectory("shipcheck-demo-darwin")
        let log = scratch.path + "/calls"
        let uname = scratch.write("bin/uname", "#!/bin/sh\necho \"uname $*\" >>'\(log)'\necho Darwin\n")
        SystemCalls.setMode(uname, 0o755)
        let shipcheck = scratch.write(
            "mac/shipcheck",
            """
            #!/bin/sh
            if [ "$1" = --version ]; then '\(CommandRunner.shipcheckPath)' --version | sed 's/ELF support: yes/ELF support: no/'; exit; fi
            exec '\(CommandRunner.shipcheckPath)' "$@"
            """)
        SystemCalls.setMode(shipcheck, 0o755)
        let result = CommandRunner.run(
            "/bin/bash", [Repository.path("Samples/demo.sh"), shipcheck],
            environment: [
                "PATH": scratch.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("demo: ELF is Linux-only: shipcheck reads ELF through libelf, which macOS lacks"))
        let document = try String(contentsOfFile: Repository.path("Samples/EXPECTED.md"), encoding: .utf8)
        let listing = try #require(document.firstMatch(of: /<!-- audit:begin -->\n```\n((?s).*?)```/)).1
        let apple = listing.split(separator: "\n").filter {
            !$0.hasPrefix("Binaries/.build-samples/") && !$0.hasPrefix("Tests/Fixtures/android/")
        }
        #expect(apple.contains { $0.hasPrefix("Bundles/.build-bundles/Demo.ipa/") })
        #expect(result.stdout.contains("reported exactly the \(apple.count) findings"), "\(result.stdout)")
        #expect(!result.stdout.contains("Binaries/.build-samples/") && !result.stdout.contains("Planted.aab"))
        #expect(result.stdout.contains("AppLib.ContentView_Previews"), "the Mach-O symbols: \(result.stdout)")
        #expect(scratch.read("calls") == "uname -s\n", "asked whether this is a Mac")
    }
}

/// Test code is never archived: the archive rules leave it out, and `--explain` says why.
@Suite struct AuditTestCodeTests {
    @Test func testTargetFilesAreOutOfScopeAndExplainSaysWhy() {
        let tree = TemporaryDirectory()
        tree.write(
            "project.yml",
            "name: App\ntargets:\n  App:\n    type: application\n    sources: [App]\n  AppChecks:\n    type: bundle.unit-test\n    sources: [AppChecks]\n"
        )
        tree.write("App/MockData.swift", "#if DEBUG\nenum MockData { static func install() {} }\n#endif\n")
        tree.write(
            "AppChecks/Launcher.swift",
            "import SwiftUI\nfunc launch() { MockData.install() }\n#Preview { Text(\"x\") }\n")
        tree.write("Tests/UI/Flow.test.swift", "func flow() { MockData.install() }\n")
        tree.write("App/Boot.swift", "func boot() { MockData.install() }\n")
        let result = CommandRunner.shipcheck(["audit", "--explain", "."], in: tree.path)
        #expect(result.status == 1)
        #expect(
            result.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) } == ["App/Boot.swift"],
            "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "AppChecks/Launcher.swift: note: test code, target AppChecks is a unit-test target (project.yml): not checked by release-references-debug-only"
            ))
        #expect(
            result.stderr.contains(
                "AppChecks/Launcher.swift: note: test code, target AppChecks is a unit-test target (project.yml): not checked by preview-outside-debug"
            ))
        #expect(
            result.stderr.contains(
                "Tests/UI/Flow.test.swift: note: test code, path convention: a Tests/ folder: not checked by release-references-debug-only"
            ))
        let quiet = CommandRunner.shipcheck(["audit", "."], in: tree.path)
        #expect(!quiet.stderr.contains("test code"), "explanations only with --explain")
    }
}
