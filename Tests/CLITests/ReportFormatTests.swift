import Foundation
import ShipcheckTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every `--format` as the real binary writes it, on a tree with one conflict block in a file
/// whose name needs escaping, checked structurally the way each consumer reads it.
@Suite struct ReportFormatTests {
    let tree: TemporaryDirectory

    init() {
        tree = TemporaryDirectory()
        tree.write("Docs/a, b:c.txt", "intro\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n")
        tree.write("clean.txt", "nothing here\n=======\n")
    }

    func run(_ format: String) -> CommandResult {
        CommandRunner.shipcheck(["conflicts", "--format", format, tree.path])
    }

    @Test func textIsCompilerStyle() {
        let result = run("text")
        #expect(result.status == 1)
        #expect(result.stdout.contains("Docs/a, b:c.txt:2:1: error: "))
        #expect(result.stdout.contains("[conflict-marker]"))
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("shipcheck: 1 error") == true)
        #expect(!result.stdout.contains("\u{1B}["), "no colour when not on a terminal")
    }

    @Test func jsonParses() throws {
        let result = run("json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["line"] as? Int == 2)
        #expect(findings.first?["endLine"] as? Int == 6)
        #expect(document["exitCode"] as? Int == 1)
    }

    @Test func sarifParsesWithRulesRegionsAndFingerprints() throws {
        let result = run("sarif")
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let rules = try #require(
            ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.contains { $0["id"] as? String == "conflict-marker" })
        let sarifResult = try #require((run["results"] as? [[String: Any]])?.first)
        let physical = try #require(
            (sarifResult["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Docs/a%2C%20b%3Ac.txt")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 2)
        #expect((sarifResult["partialFingerprints"] as? [String: String])?.isEmpty == false)
    }

    @Test func junitParsesAsXML() throws {
        let result = run("junit")
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 1)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
    }

    @Test func githubAnnotationsEscapeProperties() {
        let result = run("github")
        #expect(result.stdout.contains("::error file=Docs/a%2C b%3Ac.txt,line=2,endLine=6,col=1,"))
    }

    @Test func gitlabCodeQualityParses() throws {
        let result = run("gitlab")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(issues.count == 1)
        #expect(issues.first?["check_name"] as? String == "conflict-marker")
        #expect((issues.first?["fingerprint"] as? String)?.isEmpty == false)
        #expect(((issues.first?["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int == 2)
    }

    @Test func outputFileReceivesTheReportAndStdoutStaysQuiet() throws {
        let output = tree.path + "/report.sarif"
        let result = CommandRunner.shipcheck(["conflicts", "--format", "sarif", "--output", output, tree.path + "/Docs"]
        )
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let written = try #require(FileManager.default.contents(atPath: output))
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])
    }

    @Test func unknownFormatIsAUsageError() {
        let result = run("yaml")
        #expect(result.status == 2)
        #expect(result.stderr.contains("yaml"))
    }

    /// Colour only on a terminal and never with NO_COLOR: run under script(1), which gives the
    /// child a pseudo-terminal.
    @Test
    func colourOnATerminalUnlessNoColor() {
        let command = "'\(CommandRunner.shipcheckPath)' conflicts '\(tree.path)'"
        let script = TestPlatform.onPseudoTerminal(command)
        let coloured = CommandRunner.run(
            script.executable, script.arguments, environment: ["NO_COLOR": "", "TERM": "xterm"])
        #expect(coloured.stdout.contains("\u{1B}[1;31merror"))
        let plain = CommandRunner.run(
            script.executable, script.arguments, environment: ["NO_COLOR": "1", "TERM": "xterm"])
        #expect(plain.stdout.contains("error:"))
        #expect(!plain.stdout.contains("\u{1B}["))
    }
}
