import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

@testable import ShipcheckCore

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct SARIFReporterTests {
    func parsed() throws -> [String: Any] {
        let text = SARIFReporter().render(ReportFixtures.report())
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func hasSchemaVersionAndCompleteRuleList() throws {
        let document = try parsed()
        #expect(document["version"] as? String == "2.1.0")
        #expect((document["$schema"] as? String)?.contains("sarif") == true)
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "shipcheck")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(
            rules.compactMap { $0["id"] as? String } == ["preview-outside-debug", "conflict-marker", "preview-leak"])
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
        }
    }

    @Test func resultsCarryRelativeURIRegionsAndFingerprints() throws {
        let run = try #require((try parsed()["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 4)
        let preview = try #require(results.first { $0["ruleId"] as? String == "preview-outside-debug" })
        #expect(preview["level"] as? String == "error")
        let location = try #require(
            (preview["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        let artifact = try #require(location["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "App/Preview%20Content/View%2C%20a%3Ab.swift")
        #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 12)
        #expect(region["startColumn"] as? Int == 5)
        #expect(region["endLine"] as? Int == 14)
        #expect(region["endColumn"] as? Int == 2)
        let fingerprints = results.compactMap {
            ($0["partialFingerprints"] as? [String: String])?[SARIFReporter.fingerprintKey]
        }
        #expect(fingerprints.count == 4)
        #expect(Set(fingerprints).count == 4, "fingerprints must be unique per finding")
        #expect(results.allSatisfy { $0["ruleIndex"] is Int })
    }

    @Test func binaryFindingsNameSymbolAndOffset() throws {
        let run = try #require((try parsed()["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let leak = try #require(results.first { $0["ruleId"] as? String == "preview-leak" })
        #expect(leak["level"] as? String == "note")
        let location = try #require((leak["locations"] as? [[String: Any]])?.first)
        let logical = try #require(location["logicalLocations"] as? [[String: Any]])
        #expect(logical.contains { $0["name"] as? String == "$s3App20ContentView_PreviewsVMn" })
        let region = (location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        #expect(region?["byteOffset"] as? Int == 4096)
    }

    @Test func inputErrorsBecomeToolNotificationsAndFailTheInvocation() throws {
        let text = SARIFReporter().render(
            ReportFixtures.report(inputErrors: [InputError(path: "bad.o", message: "truncated section table")]))
        let document = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let invocation = try #require(
            (((document["runs"] as? [[String: Any]])?.first)?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect((invocation["toolExecutionNotifications"] as? [Any])?.count == 1)
    }
}

@Suite struct JUnitReporterTests {
    @Test func parsesAsXMLWithOneUniqueTestCasePerFinding() throws {
        let text = JUnitReporter().render(ReportFixtures.report())
        let document = try XMLDocument(data: Data(text.utf8))
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == 4)
        let names = cases.compactMap { $0.attribute(forName: "name")?.stringValue }
        #expect(Set(names).count == 4, "names must be unique: \(names)")
        #expect(names.contains("App/Preview Content/View, a:b.swift:12 preview-outside-debug"))
        // Only findings at or above the failing severity fail the suite.
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "tests")?.stringValue == "4")
    }

    @Test func strictModeFailsWarningsToo() throws {
        let text = JUnitReporter().render(ReportFixtures.report(failingSeverity: .warning))
        let document = try XMLDocument(data: Data(text.utf8))
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 3)
    }

    @Test func cleanRunIsOnePassingCase() throws {
        let text = JUnitReporter().render(Report(findings: []))
        let document = try XMLDocument(data: Data(text.utf8))
        #expect(try document.nodes(forXPath: "//testcase").count == 1)
        #expect(try document.nodes(forXPath: "//failure").isEmpty)
    }

    @Test func controlCharactersAreNotEmittedRaw() throws {
        let report = Report(
            findings: finalized([
                Finding(ruleID: "r", severity: .error, message: "bell \u{07} <&>", location: .file(path: "a"))
            ]))
        let text = JUnitReporter().render(report)
        #expect(!text.contains("\u{07}"))
        #expect(throws: Never.self) { try XMLDocument(data: Data(text.utf8)) }
    }
}

@Suite struct GitHubReporterTests {
    @Test func escapesDataAndProperties() {
        #expect(GitHubReporter.escapeData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(GitHubReporter.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
    }

    @Test func rendersOneWorkflowCommandPerFinding() {
        let lines = GitHubReporter().render(ReportFixtures.report()).split(separator: "\n").map(String.init)
        let commands = lines.filter { $0.hasPrefix("::") }
        #expect(commands.count == 4)
        #expect(
            commands[0]
                == "::error file=App/Preview Content/View%2C a%3Ab.swift,line=12,endLine=14,col=5,title=shipcheck preview-outside-debug::#Preview compiled in release: 100%25, ok: yes%0Afix: wrap in #if DEBUG"
        )
        #expect(
            commands.contains {
                $0.hasPrefix("::warning file=README.md,line=3,col=1,") && $0.contains("HEAD%0Asecond line")
            })
        #expect(commands.contains { $0.hasPrefix("::notice file=build/App,") })
        // No finding may spill onto a second line.
        #expect(lines.allSatisfy { $0.hasPrefix("::") || $0.hasPrefix("shipcheck:") })
    }
}

@Suite struct GitLabReporterTests {
    @Test func codeQualityIssuesHaveUniqueFingerprintsAndMappedSeverities() throws {
        let text = GitLabReporter().render(ReportFixtures.report(inputErrors: [InputError(path: "x", message: "bad")]))
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(issues.count == 5)
        let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(fingerprints).count == 5)
        #expect(
            issues.compactMap { $0["severity"] as? String }.sorted() == [
                "blocker", "critical", "info", "major", "major"
            ])
        for issue in issues {
            #expect(issue["description"] is String)
            #expect(issue["check_name"] is String)
            let location = try #require(issue["location"] as? [String: Any])
            #expect(location["path"] is String)
            #expect((location["lines"] as? [String: Any])?["begin"] is Int)
        }
    }
}

@Suite struct TextReporterTests {
    /// What a pipe gets: one compiler-style line per finding and nothing else.
    @Test func linesLayoutIsOneCompilerStyleLinePerFinding() {
        let text = TextReporter(color: false, heading: false).render(ReportFixtures.report())
        #expect(
            text == """
                App/Preview Content/View, a:b.swift:12:5: error: #Preview compiled in release: 100%, ok: yes [preview-outside-debug]
                README.md:3:1: warning: conflict block <<<<<<< HEAD\\nsecond line [conflict-marker]
                README.md:3:1: warning: conflict block <<<<<<< HEAD\\nsecond line [conflict-marker]
                build/App:swift5_protocol_conformances:0x1000: note: ContentView_Previews ships [preview-leak]

                """)
        #expect(TextReporter(color: false).summary(ReportFixtures.report()) == "shipcheck: 1 error, 2 warnings, 1 note")
    }

    /// What a terminal gets: findings under their file's name, with snippet and fix, then the summary.
    @Test func headingLayoutGroupsByFile() {
        let text = TextReporter(color: false, heading: true).render(ReportFixtures.report())
        #expect(
            text == """
                App/Preview Content/View, a:b.swift
                  12:5: error: #Preview compiled in release: 100%, ok: yes [preview-outside-debug]
                      #Preview {
                          ContentView()
                      }
                      fix: wrap in #if DEBUG

                README.md
                  3:1: warning: conflict block <<<<<<< HEAD\\nsecond line [conflict-marker]
                  3:1: warning: conflict block <<<<<<< HEAD\\nsecond line [conflict-marker]

                build/App
                  swift5_protocol_conformances:0x1000: note: ContentView_Previews ships [preview-leak]

                shipcheck: 1 error, 2 warnings, 1 note

                """)
    }

    @Test func colourOnlyWhenAsked() {
        #expect(TextReporter(color: true).render(ReportFixtures.report()).contains("\u{1B}[1;31merror"))
        #expect(!TextReporter(color: false, heading: true).render(ReportFixtures.report()).contains("\u{1B}["))
    }
}

@Suite struct JSONReporterTests {
    @Test func everyFieldAndTheExitCode() throws {
        let text = JSONReporter().render(ReportFixtures.report())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["exitCode"] as? Int == 1)
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 4)
        let first = findings[0]
        #expect(first["path"] as? String == "App/Preview Content/View, a:b.swift")
        #expect(first["line"] as? Int == 12)
        #expect(first["fixHint"] as? String == "wrap in #if DEBUG")
        #expect((first["fingerprint"] as? String)?.count == 32)
    }
}

@Suite struct JSONOutlineTests {
    /// Streamed arrays, nested members and empty arrays come out as the pretty printer lays them out.
    @Test func aStreamedDocumentReadsAsOneSerialisedWhole() {
        let sink = ReportSink.memory()
        let outline = JSONOutline.object([
            "b": .elements(count: 2) { "{\n  \"n\" : \($0)\n}" },
            "a": .array([.object(["x": .value(.array([])), "y": .value(.object(["z": .string("/")]))])]),
            "c": .elements(count: 0) { _ in "" }
        ])
        outline.write(to: sink)
        #expect(
            sink.text == """
                {
                  "a" : [
                    {
                      "x" : [

                      ],
                      "y" : {
                        "z" : "/"
                      }
                    }
                  ],
                  "b" : [
                    {
                      "n" : 0
                    },
                    {
                      "n" : 1
                    }
                  ],
                  "c" : [

                  ]
                }

                """)
    }
}

@Suite struct ExitCodeTests {
    @Test func errorsFailWarningsOnlyWhenStrict() {
        let warningOnly = [Finding(ruleID: "r", severity: .warning, message: "m", location: .file(path: "a"))]
        #expect(Report(findings: finalized(warningOnly)).exitCode == 0)
        #expect(Report(findings: finalized(warningOnly), failingSeverity: .warning).exitCode == 1)
        #expect(Report(findings: []).exitCode == 0)
        #expect(
            Report(
                findings: finalized([Finding(ruleID: "r", severity: .error, message: "m", location: .file(path: "a"))])
            )
            .exitCode == 1)
    }

    @Test func inputErrorsWinOverFindings() {
        let report = Report(
            findings: finalized([Finding(ruleID: "r", severity: .error, message: "m", location: .file(path: "a"))]),
            inputErrors: [InputError(path: "b", message: "unreadable")])
        #expect(report.exitCode == 2)
    }
}
