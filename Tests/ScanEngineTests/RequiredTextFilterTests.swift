import ScanEngine
import Testing

/// The one pass that rules out matchers whose required texts a buffer lacks: it may keep a
/// matcher that then finds nothing, never drop one that has a match.
@Suite struct RequiredTextFilterTests {
    func matcher(_ text: String, regex: Bool = false, caseInsensitive: Bool = false) throws -> Matcher {
        try Matcher(MatchPattern(text, kind: regex ? .regex : .literal, caseInsensitive: caseInsensitive))
    }

    func possible(_ matchers: [Matcher], in text: String) -> [Int] {
        Array(text.utf8).withByteView {
            RequiredTextFilter(matchers).possible(in: $0, among: Array(matchers.indices))
        }
    }

    func hasMatch(_ matcher: Matcher, in bytes: [UInt8]) -> Bool {
        let folded = bytes.withByteView { Matcher.folded($0) }
        return bytes.withByteView { buffer in
            folded.withByteView {
                !matcher.matches(in: buffer, folded: $0, deadline: Deadline(seconds: nil)).ranges.isEmpty
            }
        }
    }

    @Test func matchersWhoseTextsAreAbsentAreRuledOut() throws {
        let matchers = [
            try matcher("FIXME"), try matcher("reload"), try matcher(#"func test[A-Z]\w*Async\("#, regex: true)
        ]
        #expect(possible(matchers, in: "// FIXME: later\nfunc testLoadAsync(") == [0, 2])
        #expect(possible(matchers, in: "nothing here") == [])
        // At the buffer's very start and end.
        #expect(possible(matchers, in: "reloadFIXME") == [0, 1])
    }

    @Test func caseInsensitiveTextsAreFoundInEitherCase() throws {
        let matchers = [
            try matcher("fixme", caseInsensitive: true), try matcher("Reload", regex: true, caseInsensitive: true),
            try matcher("Exact")
        ]
        #expect(possible(matchers, in: "FiXmE rELOAD exact") == [0, 1])
    }

    @Test func matchersWithoutARequiredTextAreAlwaysKept() throws {
        let matchers = [
            try matcher(#"\b[0-9]{5}\b"#, regex: true), try matcher("x"), try matcher("alpha"), try matcher("beta")
        ]
        #expect(possible(matchers, in: "gamma") == [0, 1])
    }

    @Test func fewerThanTwoMatchersToRuleOutLeavesTheCandidatesAsTheyAre() throws {
        let matchers = [try matcher("alpha"), try matcher(#"\d+"#, regex: true)]
        #expect(possible(matchers, in: "gamma") == [0, 1])
    }

    @Test func onlyTheGivenCandidatesAreConsidered() throws {
        let matchers = [try matcher("alpha"), try matcher("beta"), try matcher("gamma")]
        let kept = Array("beta gamma".utf8).withByteView {
            RequiredTextFilter(matchers).possible(in: $0, among: [0, 2])
        }
        #expect(kept == [2])
    }

    /// The pass looks at thirty-two or sixteen positions at a time, then at the last ones one by
    /// one: a text is found at every offset of a buffer, in any bucket, up to the last byte.
    @Test func aTextIsFoundAtEveryOffset() throws {
        let words = [
            "FIXME", "reload", "[Int: String]", "ok", "guard let view = ", "Async()", "thread-safe", "// Decode", "zq",
            "user-state"
        ]
        let matchers = try words.map { try matcher($0) }
        for word in words {
            for length in [word.utf8.count, 40, 100] {
                for offset in 0...(length - word.utf8.count) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "."), count: length)
                    bytes.replaceSubrange(offset..<(offset + word.utf8.count), with: word.utf8)
                    let kept = bytes.withByteView {
                        RequiredTextFilter(matchers).possible(in: $0, among: Array(matchers.indices))
                    }
                    #expect(kept == [words.firstIndex(of: word)!], "\(word) at \(offset) of \(length)")
                }
            }
        }
    }

    /// Every matcher with a match in a buffer is kept, for many texts sharing the eight buckets,
    /// alternatives, case-insensitive and non-ASCII texts, over generated buffers.
    @Test func aMatcherWithAMatchIsNeverRuledOut() throws {
        let words = [
            "reload", "FIXME", "Async()", "[Int: String]", "guard let", "thread-safe", "café", "// Decode",
            "resultURL", "encode.map", "user-state", "cache", "view", "token", "TODO", "é"
        ]
        var matchers: [Matcher] = []
        for word in words {
            matchers.append(try matcher(word))
            matchers.append(try matcher(word.lowercased(), caseInsensitive: true))
        }
        matchers.append(try matcher(#"let [a-z]+Token: URL"#, regex: true))
        matchers.append(try matcher(#"\bcache\.(fetch|parse)\(index:"#, regex: true))
        matchers.append(try matcher(#"alpha|beta\d"#, regex: true))
        matchers.append(try matcher(#"ENCODE\.map"#, regex: true, caseInsensitive: true))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces =
            words + [
                "ALPHA", "beta7", "let xToken: URL", "cache.parse(index:", "RELOAD", "Fixme", " ", "\n", "x", "é", "ü"
            ]
        var ruledOut = 0
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<next(12) {
                bytes += Array(pieces[next(pieces.count)].utf8) + (next(2) == 0 ? [UInt8(ascii: " ")] : [])
            }
            let kept = Set(
                bytes.withByteView { RequiredTextFilter(matchers).possible(in: $0, among: Array(matchers.indices)) })
            for (index, matcher) in matchers.enumerated() where hasMatch(matcher, in: bytes) {
                #expect(kept.contains(index), "\(index) in \(String(decoding: bytes, as: UTF8.self))")
            }
            ruledOut += matchers.count - kept.count
        }
        #expect(ruledOut > 0)
    }
}
