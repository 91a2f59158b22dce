import ShipcheckTestSupport
import Testing

@testable import ShipcheckCore

@Suite struct FingerprintTests {
    func finding(line: Int, snippet: String = "#Preview(\"Dark\") {") -> Finding {
        Finding(
            ruleID: "preview-outside-debug", severity: .error, message: "m",
            location: .source(SourceLocation(path: "A.swift", line: line, column: 1)), snippet: snippet)
    }

    @Test func survivesLinesInsertedAbove() {
        let before = finalized([finding(line: 10)])[0].fingerprint
        let after = finalized([finding(line: 25)])[0].fingerprint
        #expect(before == after)
    }

    @Test func survivesReindentation() {
        let before = finalized([finding(line: 10, snippet: "#Preview(\"Dark\") {")])[0].fingerprint
        let after = finalized([finding(line: 10, snippet: "    #Preview(\"Dark\")  {")])[0].fingerprint
        #expect(before == after)
    }

    @Test func identicalFindingsInOneFileStayDistinct() {
        let findings = finalized([finding(line: 10), finding(line: 30)])
        #expect(findings[0].fingerprint != findings[1].fingerprint)
    }

    @Test func differentPathsOrRulesDiffer() {
        var other = finding(line: 10)
        other.location = .source(SourceLocation(path: "B.swift", line: 10, column: 1))
        #expect(
            finalized([finding(line: 10)])[0].fingerprint
                != finalized([other])[0].fingerprint)
    }

    @Test func hashIsStableAcrossRuns() {
        // The hash must not depend on Swift's per-process seeded Hasher.
        #expect(StableHash.hex128("shipcheck") == StableHash.hex128("shipcheck"))
        #expect(StableHash.hex128("a") != StableHash.hex128("b"))
        #expect(StableHash.hex128("").count == 32)
    }

    /// Identity text collapses whitespace runs (so re-indenting keeps fingerprints), and the
    /// same way for ASCII lines and the rest: a CR LF or a space before a combining mark is one
    /// Character, not whitespace to collapse.
    @Test(arguments: [
        ("    let  x =\t1 \n", "let x = 1"),
        ("a", "a"),
        ("", ""),
        ("  \t ", ""),
        ("é  ü\t x", "é ü x"),
        ("a\r\nb c", "a\r\nb c"),
        ("a \u{301}b  c", "a \u{301}b c")
    ])
    func normalizedCollapsesWhitespaceRuns(_ text: String, _ expected: String) {
        #expect(Fingerprinter.normalized(text) == expected)
    }
}
