import Foundation
import ScanEngine
import Testing

@testable import ScanEngine

@Suite struct RequiredLiteralTests {
    @Test(arguments: [
        ("FIXME", ["FIXME"]),
        // The run with the rarest bytes, not the longest: every test function has `func test`.
        (#"func test[A-Z]\w*Async\("#, ["Async("]),
        (#"func render[A-Z]\w*\(_ model"#, ["(_ model"]),
        // Alike in their rarest bytes: the longer.
        ("ab[0-9]abc", ["abc"]),
        // A run of three bytes or more before a rarer one-byte run.
        (#"Q\s+items"#, ["items"]),
        (#"print\("debug: [a-z]+"#, [#"print("debug: "#]),
        ("colou?r", ["colo"]),
        ("ab+c", ["ab"]),
        ("x{3}y", ["xxxy"]),
        ("a{2,}b", ["aa"]),
        (#"^<{7}(?=\s|$)|^={7}(?=\s|$)"#, ["<<<<<<<", "======="]),
        (#"\bTODO\b"#, ["TODO"]),
        ("(foo|bar)baz", ["baz"]),
        ("[xyz]+literal", ["literal"]),
        (#"a\.b"#, ["a.b"])
    ])
    func findsTheMostSelectiveRequiredText(_ pattern: String, _ expected: [String]) {
        #expect(RequiredLiteral.extract(from: pattern, caseInsensitive: false) == expected)
    }

    @Test(arguments: [#"\d{5}"#, "a|[bc]", "(?i)foo", #"\x41BC"#, #"\QABC\E"#, "(abc)", #"\p{L}+"#, "a?", ".*"])
    func givesUpRatherThanGuess(_ pattern: String) {
        #expect(RequiredLiteral.extract(from: pattern, caseInsensitive: false) == nil)
    }

    @Test func caseInsensitiveRunsAvoidLettersWithNonASCIIFolds() {
        // 'k' also matches KELVIN SIGN and 's' LONG S under Unicode case folding.
        #expect(RequiredLiteral.extract(from: "takes", caseInsensitive: true) == ["ta"])
        #expect(RequiredLiteral.extract(from: "FIXME", caseInsensitive: true) == ["FIXME"])
    }

    /// The prefilter may only skip lines the regex would not match anyway.
    @Test(arguments: [
        #"func test[A-Z]\w*Async\("#, "colou?r", #"^<{7}(?=\s|$)|^={7}(?=\s|$)"#, "x{3}y", "ab+c", #"\bfoo\b"#,
        "(?:ab|cd)ef",
        "TAKES", "[a-pr-z]at"
    ])
    func prefilteredSearchFindsWhatAPlainRegexFinds(_ pattern: String) throws {
        let lines = [
            "func testLoadAsync() {", "func testloadAsync(", "color", "colour", "colr", "<<<<<<< HEAD",
            "<<<<<<<< eight", "=======",
            "xxxy", "xxy", "abbbc", "ac", "foo bar", "food", "abef", "cdef", "efab", "takes", "TAKES", "taKes",
            "ta\u{212A}es", "cat", "qat",
            "", "\r", "tail without newline"
        ]
        let text = lines.joined(separator: "\n")
        for caseSensitive in [true, false] {
            let matcher = try Matcher(MatchPattern(pattern, kind: .regex, caseInsensitive: !caseSensitive))
            let bytes = Array(text.utf8)
            let folded = bytes.withByteView { Matcher.folded($0) }
            let found = bytes.withByteView { buffer in
                folded.withByteView { folded in
                    matcher.matches(in: buffer, folded: folded, deadline: Deadline(seconds: nil)).ranges.map { range in
                        bytes[..<range.lowerBound].filter { $0 == UInt8(ascii: "\n") }.count + 1
                    }
                }
            }
            let regex = try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
            let expected = lines.enumerated().flatMap { index, line in
                regex.matches(in: line, range: NSRange(location: 0, length: line.utf16.count)).filter {
                    $0.range.length > 0
                }.map { _ in index + 1 }
            }
            #expect(found == expected, "\(pattern) caseSensitive=\(caseSensitive)")
        }
    }
}
