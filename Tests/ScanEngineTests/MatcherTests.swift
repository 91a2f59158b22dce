import ScanEngine
import Testing

/// The regex side of `Matcher` (PCRE2): matches as byte ranges, one line at a time, and the
/// ICU patterns of stored queries either kept in meaning or refused by name.
@Suite struct MatcherTests {
    func ranges(_ pattern: String, _ text: some Collection<UInt8>, caseInsensitive: Bool = false) throws -> [Range<Int>]
    {
        let matcher = try Matcher(MatchPattern(pattern, kind: .regex, caseInsensitive: caseInsensitive))
        let bytes = Array(text)
        let folded = bytes.withByteView { Matcher.folded($0) }
        return bytes.withByteView { buffer in
            folded.withByteView { matcher.matches(in: buffer, folded: $0, deadline: Deadline(seconds: nil)).ranges }
        }
    }

    /// The clock is read every 64 matches or candidate lines, not at each: a passed deadline
    /// still stops a file with many matches early, with or without a required text.
    @Test func aPassedDeadlineStopsAFileWithManyMatches() throws {
        let bytes = Array(String(repeating: "id 12345\n", count: 1_000).utf8)
        for pattern in [#"\d{5}"#, #"id \d+"#] {
            let matcher = try Matcher(MatchPattern(pattern, kind: .regex, caseInsensitive: false))
            let found = bytes.withByteView { buffer in
                [UInt8]().withByteView { matcher.matches(in: buffer, folded: $0, deadline: Deadline(seconds: 0)) }
            }
            #expect(found.cutShort, "\(pattern)")
            #expect(found.ranges.count < 1_000, "\(pattern)")
            let whole = bytes.withByteView { buffer in
                [UInt8]().withByteView { matcher.matches(in: buffer, folded: $0, deadline: Deadline(seconds: nil)) }
            }
            #expect(!whole.cutShort && whole.ranges.count == 1_000, "\(pattern)")
        }
    }

    @Test func aMatchNeverSpansALineEnd() throws {
        // `\s` would take the newline on the whole buffer; each line alone has no match.
        #expect(try ranges(#"a\s*b"#, "a\nb\na  b\n".utf8) == [4..<8])
        #expect(try ranges(#"x[^y]*"#, "xx\r\nzx".utf8) == [0..<2, 5..<6])
    }

    @Test func aRegexWithNoRequiredTextRunsOnTheWholeBuffer() throws {
        #expect(try ranges(#"\b[0-9]{5}\b"#, "12345 123456\n99999\n 4242 ".utf8) == [0..<5, 13..<18])
    }

    @Test func anchorsAreLineBoundariesWithCRLF() throws {
        #expect(try ranges("^end$", "end\r\nthe end\nend".utf8) == [0..<3, 13..<16])
    }

    @Test func invalidUTF8IsSkippedNotFatal() throws {
        #expect(try ranges("ab+", [0xFF, 0x61, 0x62, 0xC3, 0x0A, 0x61, 0x62]) == [1..<3, 5..<7])
        // Invalid bytes far from the match, with and without a required text (each line alone).
        let tail: [UInt8] = Array(String(repeating: "x", count: 40).utf8) + [0xED, 0xA0, 0x80, 0x0A]
        #expect(try ranges(#"\b[0-9]{5}\b"#, Array("ab 12345 é\n".utf8) + tail) == [3..<8])
        #expect(try ranges(#"id: \d+"#, Array("ß id: 42\n".utf8) + tail) == [3..<9])
    }

    @Test func validNonASCIITextMatchesByCharactersNotBytes() throws {
        // Word boundaries, classes and `.` see whole characters in valid UTF-8 (the code path
        // that skips PCRE2's own validity check): `\w+` takes "naïve" whole, `.` one "é".
        #expect(try ranges(#"\b\w+\b"#, "naïve café".utf8) == [0..<6, 7..<12])
        #expect(try ranges("caf.$", "café\n".utf8) == [0..<5])
        #expect(try ranges(#"(?<=é)\d+"#, "é12 e34\n".utf8) == [2..<4])
    }

    @Test func unicodeCaseFoldingAndClasses() throws {
        #expect(try ranges(#"ärger\w"#, "ÄRGERß".utf8, caseInsensitive: true) == [0..<8])
        #expect(try ranges(#"\u00e9+"#, "café".utf8) == [3..<5])
    }

    @Test func icuClassSetOperationsAreRefusedByName() throws {
        for pattern in ["[[a-z]&&[^q]]", #"[\p{L}--\p{Lu}]"#, "[a[bc]]"] {
            let error = #expect(throws: PatternError.self) {
                try Matcher(MatchPattern(pattern, kind: .regex), origin: "query 'sets'")
            }
            #expect(error?.message.contains("in query 'sets'") == true, "\(pattern)")
            #expect(error?.message.contains("class set operations") == true, "\(pattern)")
        }
        // A POSIX class inside a class reads the same in both engines.
        #expect(try ranges("[[:digit:]x]+", "ab1x2".utf8) == [2..<5])
    }

    @Test func aPatternPCRE2RejectsIsOneLineNamingItsOrigin() {
        // ICU's character names; PCRE2 has none.
        let error = #expect(throws: PatternError.self) {
            try Matcher(MatchPattern(#"\N{DIGIT ONE}"#, kind: .regex), origin: "query 'named'")
        }
        let message = error?.message ?? ""
        #expect(message.contains(#"invalid regular expression '\N{DIGIT ONE}' in query 'named'"#))
        #expect(!message.contains("\n"))
    }
}
