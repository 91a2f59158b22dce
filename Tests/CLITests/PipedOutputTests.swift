import Foundation
import ShipcheckTestSupport
import Testing

/// The text layout follows where standard output goes, as ripgrep's does: through a pipe one
/// `path:line:col: severity: message [rule]` line per finding (what `cut`, `xargs`, editors and
/// Xcode's issue parser read) — for `query run` a search result, `path:line:col:matched line`
/// (`rg --vimgrep`'s form) — with the summary on standard error; on a terminal the findings
/// grouped under their file, in colour unless NO_COLOR is set; `--heading` / `--no-heading`
/// force either.
@Suite struct PipedOutputTests {
    let tree: TemporaryDirectory

    init() {
        tree = TemporaryDirectory()
        tree.write("App/View.swift", "import SwiftUI\n#Preview { Text(\"hi\") }\n")
        tree.write("App/Merge.swift", "let a = 1\n<<<<<<< HEAD\nlet b = 1\n=======\nlet b = 2\n>>>>>>> topic\n")
        tree.write(".shipcheck/queries.yml", "queries:\n  - name: lets\n    pattern: 'let b'\n")
    }

    /// `path:line:col: severity: message [rule]`, or `path[arch]:section:0xoffset: …` in a binary.
    static var findingLine: Regex<(Substring, Substring?, Substring?, Substring?, Substring)> {
        #/^[^:\n]+(\[[a-z0-9_]+\])?(\([^)\n]+\))?(:[0-9]+:[0-9]+|:[^:\n]+:0x[0-9a-f]+|:[^:\n]+)?: (error|warning|note): .+ \[[a-z0-9-]+\]$/#
    }

    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test(arguments: [
        ["sources", "."], ["conflicts", "."], ["audit", "."], ["binary", Repository.machOFixture("App-universal")]
    ])
    func pipedOutputIsOneLinePerFinding(_ arguments: [String]) throws {
        let result = CommandRunner.shipcheck(arguments, in: tree.path)
        #expect(result.status == 1, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(!output.isEmpty)
        for line in output { #expect(line.wholeMatch(of: Self.findingLine) != nil, "\(arguments[0]): \(line)") }
        #expect(result.stderr.contains("shipcheck: "), "the summary goes to standard error")
        #expect(!result.stdout.contains("\u{1B}[") && !result.stderr.contains("\u{1B}["))
    }

    @Test func sourceFindingsReadAsCompilerDiagnostics() {
        let result = CommandRunner.shipcheck(["audit", "."], in: tree.path)
        #expect(
            lines(result.stdout).contains {
                $0.hasPrefix("App/View.swift:2:1: error: ") && $0.hasSuffix(" [preview-outside-debug]")
            })
        #expect(
            lines(result.stdout).contains {
                $0.hasPrefix("App/Merge.swift:2:1: error: ") && $0.hasSuffix(" [conflict-marker]")
            })
    }

    /// Piped, `query run` prints what `rg --vimgrep` and editors' quickfix lists read — the
    /// matched line, not the query's description on every line — and, when several queries run,
    /// each line starts with the query's name.
    @Test func pipedQueryRunIsASearchResult() {
        tree.write(
            ".shipcheck/queries.yml",
            """
            queries:
              - name: lets
                description: 'Second bindings'
                pattern: 'let b'
              - name: ones
                pattern: '= 1'
            """)
        tree.write("App/Long.swift", "\tlet b = \"" + String(repeating: "é", count: 200) + "\"\r\n")
        let query = CommandRunner.shipcheck(["query", "run", "lets"], in: tree.path)
        #expect(query.status == 0, "\(query.stderr)")
        let long = "App/Long.swift:1:2:\tlet b = \"" + String(repeating: "é", count: 145) + "…"
        #expect(
            lines(query.stdout) == [long, "App/Merge.swift:3:1:let b = 1", "App/Merge.swift:5:1:let b = 2"],
            "\(query.stdout)")
        #expect(query.stderr.contains("lets: 3 matches in 2 files"), "the counts go to standard error: \(query.stderr)")
        let both = CommandRunner.shipcheck(["query", "run", "--all"], in: tree.path)
        #expect(
            lines(both.stdout) == [
                "lets:" + long, "lets:App/Merge.swift:3:1:let b = 1", "lets:App/Merge.swift:5:1:let b = 2",
                "ones:App/Merge.swift:1:7:let a = 1", "ones:App/Merge.swift:3:7:let b = 1"
            ], "\(both.stdout)")
        // The description stays where a person reads it: headings, JSON, SARIF.
        #expect(
            CommandRunner.shipcheck(["query", "run", "lets", "--heading"], in: tree.path).stdout.contains(
                "lets (literal, repo) — Second bindings"))
        let json = CommandRunner.shipcheck(["query", "run", "lets", "--format", "json"], in: tree.path).stdout
        #expect(json.contains("\"message\" : \"saved query 'lets': Second bindings\""), "\(json)")
    }

    /// In the audit's compiler-style lines a gate's finding carries the matched text; JSON and
    /// SARIF keep the query's description.
    @Test func auditLinesOfAGateCarryTheMatchedText() {
        tree.write(
            ".shipcheck/queries.yml",
            "queries:\n  - name: no-b\n    description: 'No second bindings'\n    pattern: 'let b'\n    expect: none\n")
        let result = CommandRunner.shipcheck(["audit", "."], in: tree.path)
        #expect(
            lines(result.stdout).contains(
                "App/Merge.swift:3:1: error: saved query 'no-b' expects no matches: let b = 1 [saved-query]"),
            "\(result.stdout)")
        let sarif = CommandRunner.shipcheck(["audit", "--format", "sarif", "."], in: tree.path).stdout
        #expect(sarif.contains("saved query 'no-b' expects no matches: No second bindings"), "\(sarif)")
        let grouped = CommandRunner.shipcheck(["audit", "--heading", "."], in: tree.path).stdout
        #expect(
            grouped.contains("3:1: error: saved query 'no-b' expects no matches: No second bindings [saved-query]"),
            "\(grouped)")
    }

    @Test func headingForcesTheGroupedViewThroughAPipe() {
        let result = CommandRunner.shipcheck(["conflicts", "--heading", "."], in: tree.path)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("App/Merge.swift\n  2:1: error: "), "\(result.stdout)")
        #expect(result.stdout.contains("      <<<<<<< HEAD"), "with the snippet")
        #expect(result.stdout.hasSuffix("shipcheck: 1 error, 0 warnings, 0 notes\n"))
        let query = CommandRunner.shipcheck(["query", "run", "--all", "--heading"], in: tree.path)
        #expect(
            query.stdout.contains("lets (literal, repo)\n  App/Merge.swift\n    3:1  let b = 1\n"), "\(query.stdout)")
    }

    @Test func terminalGetsHeadingsAndColourUnlessNoColorOrNoHeading() {
        let colour = CommandRunner.shipcheckOnTerminal(
            ["conflicts", "."], terminal: .stdout, in: tree.path, environment: ["NO_COLOR": ""])
        #expect(colour.stdout.contains("App/Merge.swift\u{1B}[0m\n"), "a heading: \(colour.stdout)")
        #expect(colour.stdout.contains("\u{1B}[1;31merror\u{1B}[0m"))
        let plain = CommandRunner.shipcheckOnTerminal(
            ["conflicts", "."], terminal: .stdout, in: tree.path, environment: ["NO_COLOR": "1"])
        #expect(
            plain.stdout.hasPrefix("App/Merge.swift\n  2:1: error: ") && !plain.stdout.contains("\u{1B}["),
            "\(plain.stdout)")
        let flat = CommandRunner.shipcheckOnTerminal(
            ["conflicts", "--no-heading", "--no-color", "."], terminal: .stdout, in: tree.path)
        #expect(
            lines(flat.stdout).count == 1 && flat.stdout.hasPrefix("App/Merge.swift:2:1: error: "), "\(flat.stdout)")
        // A query's lines on a terminal without headings: the match in colour, as in headings.
        let query = CommandRunner.shipcheckOnTerminal(
            ["query", "run", "lets", "--no-heading"], terminal: .stdout, in: tree.path, environment: ["NO_COLOR": ""])
        #expect(query.stdout.contains("App/Merge.swift:3:1:\u{1B}[1;31mlet b\u{1B}[0m = 1"), "\(query.stdout)")
    }
}

/// The progress line of long runs: on standard error, only when it is a terminal and the run
/// takes longer than a second.
@Suite struct ProgressLineTests {
    @Test func nothingOnAPipeNorOnAShortRunAtATerminal() {
        let tree = TemporaryDirectory()
        tree.write("App/View.swift", "import SwiftUI\n#Preview { Text(\"hi\") }\n")
        tree.write(".shipcheck/queries.yml", "queries:\n  - name: hi\n    pattern: 'hi'\n")
        let bundle = Repository.path("Tests/Fixtures/bundle")
        for arguments in [["audit", "."], ["query", "run", "--all"], ["binary", bundle]] {
            let piped = CommandRunner.shipcheck(arguments, in: tree.path)
            #expect(
                !piped.stderr.contains("\r") && !piped.stderr.contains("\u{1B}[K"), "\(arguments[0]): \(piped.stderr)")
        }
        let short = CommandRunner.shipcheckOnTerminal(["audit", "."], terminal: .stderr, in: tree.path)
        #expect(short.status == 1)
        #expect(!short.stderr.contains("\r"), "a run under a second shows no progress: \(short.stderr)")
    }
}
