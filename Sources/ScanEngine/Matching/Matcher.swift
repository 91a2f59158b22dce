/// What to look for: plain text or a regular expression, with the usual search options.
package struct MatchPattern: Sendable, Hashable {
    package enum Kind: Sendable, Hashable { case literal, regex }

    package var text: String
    package var kind: Kind
    package var caseInsensitive: Bool
    /// The match must not touch a word character on either side (ripgrep's `-w`).
    package var wholeWord: Bool

    package init(_ text: String, kind: Kind, caseInsensitive: Bool = false, wholeWord: Bool = false) {
        self.text = text
        self.kind = kind
        self.caseInsensitive = caseInsensitive
        self.wholeWord = wholeWord
    }
}

/// Why a pattern cannot be used, as one line.
package struct PatternError: Error, Sendable {
    package var message: String

    package init(message: String) { self.message = message }
}

/// The one place patterns are compiled and matched (saved queries, binary name and string
/// patterns, `symbols --grep`): bytes in, match ranges out. Plain text is found with memmem on
/// the whole buffer; a regular expression with memmem for a text every match must contain
/// (`RequiredLiteral`), then the regex engine on the lines holding it — or, with no such
/// text, the engine on the whole buffer — under a deadline. The engine sits behind
/// `RegexEngine`; nothing outside this folder knows which one it is.
package struct Matcher: Sendable {
    /// How regular expressions are written, for messages and help.
    package static let syntaxHint = "escape ( ) [ ] { } . * + ? ^ $ | \\ to match them literally"

    private enum Strategy: Sendable {
        /// `needle` is ASCII-lowercased when `foldCase`: searched in the folded buffer.
        case literal(needle: [UInt8], foldCase: Bool, wholeWord: Bool)
        case regex(RegexEngine, prefilter: [[UInt8]]?, foldCase: Bool)
    }

    private let strategy: Strategy

    /// `origin` names where the pattern comes from in an error message (`query 'todo'`).
    package init(_ pattern: MatchPattern, origin: String? = nil) throws(PatternError) {
        let foldCase = pattern.caseInsensitive
        if pattern.text.isEmpty { throw PatternError(message: "the pattern is empty") }
        if pattern.kind == .literal, !foldCase || pattern.text.utf8.allSatisfy({ $0 < 0x80 }) {
            let needle = Array(pattern.text.utf8)
            strategy = .literal(
                needle: foldCase ? needle.map(Self.asciiLowercased) : needle, foldCase: foldCase,
                wholeWord: pattern.wholeWord)
            return
        }
        // A regex, or a literal needing Unicode case folding (the engine does that; memmem cannot).
        let engine = try RegexEngine(pattern, origin: origin)
        // A literal needing Unicode folding gets no prefilter: its ASCII folding is not exact.
        let literals =
            pattern.kind == .literal ? nil : RequiredLiteral.extract(from: pattern.text, caseInsensitive: foldCase)
        let prefilter = literals?.map { Array($0.utf8).map { foldCase ? Self.asciiLowercased($0) : $0 } }
        strategy = .regex(engine, prefilter: prefilter, foldCase: foldCase)
    }

    /// Whether `matches` wants the ASCII-lowercased copy of the buffer (`Matcher.folded(_:)`),
    /// which one file's matchers share.
    package var wantsFoldedBuffer: Bool {
        switch strategy {
        case .literal(_, let foldCase, _): foldCase
        case .regex(_, let prefilter, let foldCase): foldCase && prefilter != nil
        }
    }

    /// Texts one of which every match contains, as bytes (ASCII-lowercased when `foldCase`:
    /// found in either case), or nil when a match may contain none (`RequiredTextFilter`).
    var requiredTexts: (texts: [[UInt8]], foldCase: Bool)? {
        switch strategy {
        case .literal(let needle, let foldCase, _): ([needle], foldCase)
        case .regex(_, let prefilter, let foldCase): prefilter.map { ($0, foldCase) }
        }
    }

    /// Every match in `bytes`, in order, as byte ranges; no match spans a line end.
    /// `folded` is `Matcher.folded(bytes)` when `wantsFoldedBuffer`, else unused.
    /// `cutShort` when the deadline stopped the search.
    package func matches(in bytes: borrowing ByteView, folded: borrowing ByteView, deadline: Deadline) -> (
        ranges: [Range<Int>], cutShort: Bool
    ) {
        matches(in: bytes.base, folded: folded.base, deadline: deadline)
    }

    func matches(in bytes: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer, deadline: Deadline) -> (
        ranges: [Range<Int>], cutShort: Bool
    ) {
        var subject = MatchSubject(bytes: bytes, folded: folded)
        return matches(in: &subject, deadline: deadline)
    }

    /// The same for a buffer that several matchers search in turn (one file's saved queries):
    /// what one matcher learns of it (its UTF-8 validity) the next does not work out again.
    package func matches(in subject: inout MatchSubject, deadline: Deadline) -> (ranges: [Range<Int>], cutShort: Bool) {
        // The regex case is worked out apart: binding its engine (an object) here would make
        // the compiler copy the strategy, retaining a literal's needle for every file too.
        guard case .literal(let needle, let foldCase, let wholeWord) = strategy else {
            return regexMatches(in: &subject, deadline: deadline)
        }
        let bytes = subject.bytes
        let haystack = foldCase ? subject.folded : bytes
        var ranges: [Range<Int>] = []
        needle.withUnsafeBytes { needle in
            var position = 0
            while let hit = ByteSearch.find(needle, in: haystack, from: position) {
                let end = hit + needle.count
                if wholeWord && (Self.isWordByte(before: hit, in: bytes) || Self.isWordByte(at: end, in: bytes)) {
                    position = hit + 1
                    continue
                }
                ranges.append(hit..<end)
                position = end
            }
        }
        return (ranges, false)
    }

    private func regexMatches(in subject: inout MatchSubject, deadline: Deadline) -> (
        ranges: [Range<Int>], cutShort: Bool
    ) {
        guard case .regex(let engine, let prefilter, let foldCase) = strategy else {
            preconditionFailure("a literal strategy")
        }
        let bytes = subject.bytes
        var ranges: [Range<Int>] = []
        guard let prefilter else {
            // No text every match needs: the engine on the whole buffer.
            let cutShort = engine.matches(
                in: bytes, lines: 0..<bytes.count, validUTF8: subject.isValidUTF8, deadline: deadline, into: &ranges)
            return (ranges, cutShort)
        }
        // The engine on the lines holding a required text only.
        var candidates = CandidateFinder(literals: prefilter, haystack: foldCase ? subject.folded : bytes)
        var position = 0, step = 0
        while position < bytes.count, let hit = candidates.next(from: position) {
            position = Self.lineStart(before: hit, in: bytes, notBefore: position)
            if deadline.hasPassed(atStep: step) { return (ranges, true) }
            step += 1
            let lineEnd = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: hit) ?? bytes.count
            if engine.matches(
                in: bytes, lines: position..<lineEnd, validUTF8: subject.isValidUTF8, deadline: deadline, into: &ranges)
            {
                return (ranges, true)
            }
            position = lineEnd + 1
        }
        return (ranges, false)
    }

    /// The first match in a short text (a symbol name, a string from a binary).
    package func firstMatch(in text: String) -> Substring? {
        var text = text
        return text.withUTF8 { utf8 -> Range<Int>? in
            let bytes = UnsafeRawBufferPointer(utf8)
            let folded = wantsFoldedBuffer ? utf8.map(Self.asciiLowercased) : []
            return folded.withUnsafeBytes {
                matches(in: bytes, folded: $0, deadline: Deadline(seconds: nil)).ranges.first
            }
        }.map { range in
            let utf8 = text.utf8
            return text[
                utf8.index(
                    utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
                        utf8.startIndex, offsetBy: range.upperBound)]
        }
    }

    /// The ASCII-lowercased copy of a buffer that case-insensitive matchers search.
    package static func folded(_ bytes: borrowing ByteView) -> [UInt8] { bytes.base.map(asciiLowercased) }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Start of the line holding `offset`, searching back no further than `limit` (itself a line start).
    private static func lineStart(before offset: Int, in bytes: UnsafeRawBufferPointer, notBefore limit: Int) -> Int {
        var start = offset
        while start > limit, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    /// Word bytes for whole-word matching: ASCII letters, digits, `_`, and any byte of a
    /// non-ASCII UTF-8 sequence (letters in most scripts).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte.isASCIILetter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }

    private static func isWordByte(before offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        offset > 0 && isWordByte(bytes[offset - 1])
    }

    private static func isWordByte(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        offset < bytes.count && isWordByte(bytes[offset])
    }
}

/// The earliest occurrence of any of several literals, remembering each literal's next
/// hit so the buffer is scanned once per literal, not once per candidate.
struct CandidateFinder {
    private let literals: [[UInt8]]
    private let haystack: UnsafeRawBufferPointer
    /// Per literal: its next hit at or after `searchedFrom`, or nil when there is none.
    private var nextHits: [Int?]
    private var searchedFrom: [Int]

    init(literals: [[UInt8]], haystack: UnsafeRawBufferPointer) {
        self.literals = literals
        self.haystack = haystack
        nextHits = Array(repeating: nil, count: literals.count)
        searchedFrom = Array(repeating: -1, count: literals.count)
    }

    mutating func next(from position: Int) -> Int? {
        var best: Int?
        for index in literals.indices {
            if searchedFrom[index] < 0 || (nextHits[index].map { $0 < position } ?? false) {
                nextHits[index] = literals[index].withUnsafeBytes { ByteSearch.find($0, in: haystack, from: position) }
                searchedFrom[index] = position
            }
            if let hit = nextHits[index], hit < best ?? Int.max { best = hit }
        }
        return best
    }
}

/// One buffer as the matchers of a file see it: its bytes, the ASCII-lowercased copy that
/// case-insensitive matchers search (`Matcher.folded(_:)`, empty when none wants it), and
/// whether it is well-formed UTF-8 — worked out once, when a regular expression first asks,
/// as the engine matches valid text faster.
///
/// Noncopyable, and made only for the length of a call (`withSubject`), so it cannot outlive
/// the bytes it points into.
package struct MatchSubject: ~Copyable {
    let bytes: UnsafeRawBufferPointer
    let folded: UnsafeRawBufferPointer
    private var checkedUTF8: Bool?

    init(bytes: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.folded = folded
    }

    /// Lends a subject over `bytes` and their `folded` copy (empty when no matcher wants it).
    package static func with<Result>(
        bytes: borrowing ByteView, folded: borrowing ByteView, _ body: (inout MatchSubject) -> Result
    ) -> Result {
        var subject = MatchSubject(bytes: bytes.base, folded: folded.base)
        return body(&subject)
    }

    /// Lends the subject's bytes.
    package func withBytes<Result>(_ body: (borrowing ByteView) -> Result) -> Result {
        body(ByteView(unsafeBytes: bytes))
    }

    var isValidUTF8: Bool {
        mutating get {
            if let checkedUTF8 { return checkedUTF8 }
            let valid = ByteSearch.isValidUTF8(bytes)
            checkedUTF8 = valid
            return valid
        }
    }
}
