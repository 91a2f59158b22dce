import CPCRE2

/// The regular-expression engine behind `Matcher`: PCRE2 with its JIT (what `git grep -P` and
/// `rg --pcre2` use). This file is the only place that names it; docs/regex-engine.md says
/// why it and how its dialect differs from ICU's, the engine before it.
///
/// A pattern is compiled once, UTF-8 and Unicode-aware (`\w`, `\d`, `\b`, case folding follow
/// Unicode, as ICU's did), `^`/`$` at line boundaries with CR LF, LF or CR ending a line, and
/// invalid UTF-8 in a file tolerated. The pattern is compiled twice: PCRE2's code that
/// tolerates invalid UTF-8 (`PCRE2_MATCH_INVALID_UTF`) matches much slower than the plain code
/// (docs/performance.md, "Valid UTF-8 to PCRE2's fast code"), so a buffer the caller found
/// valid goes to the plain one without PCRE2's own check
/// (`PCRE2_NO_UTF_CHECK`), and only a buffer with invalid sequences to the tolerant one.
/// Matching runs on the whole buffer; a match that would
/// span a line end is taken as the line alone gives it, so matches stay within one line as
/// they did when the engine saw one line at a time. Catastrophic backtracking ends at PCRE2's
/// match limit, which reports the search as cut short.
final class RegexEngine: @unchecked Sendable {  // Compiled code is immutable; matching only reads it.
    /// For subjects known to be valid UTF-8.
    private let code: Compiled
    /// For any bytes (`PCRE2_MATCH_INVALID_UTF`).
    private let tolerantCode: Compiled

    init(_ pattern: MatchPattern, origin: String?) throws(PatternError) {
        let place = origin.map { " in \($0)" } ?? ""
        let source =
            pattern.kind == .regex ? try Self.translated(pattern.text, place: place) : Self.escaped(pattern.text)
        // Whole word as ripgrep's -w means it: the match is not touching a word character,
        // whatever the pattern's own first and last characters are.
        let wrapped = pattern.wholeWord ? "(?<![\\p{L}\\p{N}_])(?:\(source))(?![\\p{L}\\p{N}_])" : source
        var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP) | UInt32(PCRE2_MULTILINE) | UInt32(PCRE2_NEVER_BACKSLASH_C)
        if pattern.caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
        let compile = { (options: UInt32) throws(PatternError) -> Compiled in
            do throws(Compiled.Failure) {
                return try Compiled(Array(wrapped.utf8), options: options)
            } catch {
                throw PatternError(
                    message:
                        "invalid regular expression '\(pattern.text)'\(place): \(error.reason) (\(Matcher.syntaxHint))")
            }
        }
        code = try compile(options)
        tolerantCode = try compile(options | UInt32(PCRE2_MATCH_INVALID_UTF))
    }

    /// Matches in `bytes[lines]` (whole lines: from a line start to a line end or the buffer's
    /// end), appended to `ranges` as byte ranges of `bytes`; none spans a line end and empty
    /// matches are dropped. True when the deadline or the match limit stopped the search.
    /// `validUTF8`: whether all of `bytes` is well-formed UTF-8 (`ByteSearch.isValidUTF8`).
    func matches(
        in bytes: UnsafeRawBufferPointer, lines: Range<Int>, validUTF8: Bool, deadline: Deadline,
        into ranges: inout [Range<Int>]
    ) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let matchData = MatchData.current
        let code = validUTF8 ? code : tolerantCode
        let end = lines.upperBound
        var start = lines.lowerBound
        var step = 0
        while start < end {
            guard var found = code.run(base, length: end, from: start, matchData) else { return false }
            guard found.lowerBound >= 0 else { return true }
            let lineEnd =
                ByteSearch.find(
                    byte: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: bytes[..<end]),
                    from: found.lowerBound) ?? end
            let contentEnd =
                lineEnd > found.lowerBound && bytes[lineEnd - 1] == UInt8(ascii: "\r") ? lineEnd - 1 : lineEnd
            if found.upperBound > contentEnd {
                // Across a line end: the match the line alone has, if any, else on to the next line.
                guard let inLine = code.run(base, length: contentEnd, from: found.lowerBound, matchData) else {
                    start = lineEnd + 1
                    continue
                }
                guard inLine.lowerBound >= 0 else { return true }
                found = inLine
            }
            if found.isEmpty {
                start = found.lowerBound + 1
                while start < end, bytes[start] & 0xC0 == 0x80 { start += 1 }  // to the next character
            } else {
                ranges.append(found)
                start = found.upperBound
            }
            if deadline.hasPassed(atStep: step) { return true }
            step += 1
        }
        return false
    }

    /// One compiled form of the pattern, JIT-compiled where PCRE2 can.
    private final class Compiled: @unchecked Sendable {
        struct Failure: Error { let reason: String }

        let pointer: OpaquePointer
        let jitCompiled: Bool
        /// `PCRE2_NO_UTF_CHECK` for the code that expects valid UTF-8 (the caller checked).
        let matchOptions: UInt32

        init(_ pattern: [UInt8], options: UInt32) throws(Failure) {
            let context = pcre2_compile_context_create_8(nil)
            defer { pcre2_compile_context_free_8(context) }
            pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANYCRLF))
            var errorCode: Int32 = 0
            var errorOffset = 0
            let compiled = pattern.withUnsafeBufferPointer {
                pcre2_compile_8($0.baseAddress, $0.count, options, &errorCode, &errorOffset, context)
            }
            guard let compiled else {
                var message = [UInt8](repeating: 0, count: 256)
                let length = message.withUnsafeMutableBufferPointer {
                    pcre2_get_error_message_8(errorCode, $0.baseAddress, $0.count)
                }
                throw Failure(
                    reason: length > 0
                        ? String(decoding: message.prefix(Int(length)), as: UTF8.self) : "error \(errorCode)")
            }
            pointer = compiled
            jitCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
            matchOptions = options & UInt32(PCRE2_MATCH_INVALID_UTF) == 0 ? UInt32(PCRE2_NO_UTF_CHECK) : 0
        }

        deinit { pcre2_code_free_8(pointer) }

        /// The first match in `subject[..<length]` at or after `start`; nil when there is none;
        /// a range starting at -1 when the match limit (or another engine error) stopped it.
        func run(_ subject: UnsafePointer<UInt8>, length: Int, from start: Int, _ matchData: MatchData) -> Range<Int>? {
            var status =
                jitCompiled
                ? pcre2_jit_match_8(pointer, subject, length, start, matchOptions, matchData.pointer, nil)
                : pcre2_match_8(pointer, subject, length, start, matchOptions, matchData.pointer, nil)
            if status == PCRE2_ERROR_JIT_STACKLIMIT {
                // The JIT's stack is small; the interpreter keeps its backtracking on the heap.
                status = pcre2_match_8(pointer, subject, length, start, matchOptions, matchData.pointer, nil)
            }
            if status == PCRE2_ERROR_NOMATCH { return nil }
            if status < 0 { return -1 ..< -1 }
            let vector = pcre2_get_ovector_pointer_8(matchData.pointer)!
            return vector[0]..<max(vector[0], vector[1])
        }
    }

    /// Plain text as a pattern: every ASCII punctuation character escaped (PCRE2 reads an
    /// escaped punctuation character as itself; the other escapers here follow an output
    /// format's rules and leave most punctuation alone).
    private static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar), scalar != " " {
                out.append("\\")
            }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// A saved pattern (written for ICU, the engine before) as PCRE2 reads it with the same
    /// meaning: ICU's `\uhhhh` and `\Uhhhhhhhh` become `\x{…}`; ICU's class set operations
    /// (`[a-z&&[^q]]`, `[\p{L}--\p{Lu}]`, `[a[b]]`), which PCRE2 would read as other
    /// characters without an error, are refused.
    static func translated(_ pattern: String, place: String) throws(PatternError) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var out = String.UnicodeScalarView()
        var classDepth = 0
        var index = 0
        func refuse() -> PatternError {
            PatternError(
                message:
                    "invalid regular expression '\(pattern)'\(place): class set operations (&&, --, a class inside a class) are ICU syntax that PCRE2 reads differently; list the class's members instead (see docs/regex-engine.md)"
            )
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                let digits = next == "u" ? 4 : next == "U" ? 8 : 0
                if digits > 0, index + 1 + digits < scalars.count,
                    scalars[(index + 2)...(index + 1 + digits)].allSatisfy({ $0.properties.isASCIIHexDigit })
                {
                    out.append(contentsOf: "\\x{".unicodeScalars)
                    for digit in scalars[(index + 2)...(index + 1 + digits)] { out.append(digit) }
                    out.append("}")
                    index += 2 + digits
                    continue
                }
                out.append(scalar)
                out.append(next)
                if next == "Q", classDepth == 0 {
                    // \Q…\E quotes everything up to \E as it is.
                    index += 2
                    while index < scalars.count,
                        !(scalars[index] == "\\" && index + 1 < scalars.count && scalars[index + 1] == "E")
                    {
                        out.append(scalars[index])
                        index += 1
                    }
                    continue
                }
                index += 2
                continue
            }
            if classDepth > 0 {
                let following = index + 1 < scalars.count ? scalars[index + 1] : nil
                if scalar == "[" {
                    // POSIX classes ([:alpha:]) are the one bracket both engines read alike inside a class.
                    guard following == ":" else { throw refuse() }
                    let rest = scalars[(index + 2)...]
                    guard let close = rest.firstIndex(of: "]"), close > index + 2, scalars[close - 1] == ":" else {
                        throw refuse()
                    }
                    for member in scalars[index...close] { out.append(member) }
                    index = close + 1
                    continue
                }
                if (scalar == "&" || scalar == "-") && following == scalar { throw refuse() }
                if scalar == "]" { classDepth = 0 }
            } else if scalar == "[" {
                classDepth = 1
                out.append(scalar)
                index += 1
                // A `]` right after `[` or `[^` is a member, not the end.
                if index < scalars.count, scalars[index] == "^" {
                    out.append(scalars[index])
                    index += 1
                }
                if index < scalars.count, scalars[index] == "]" {
                    out.append(scalars[index])
                    index += 1
                }
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }
}

/// One PCRE2 match-data block per thread, reused for every match that thread runs.
private final class MatchData {
    let pointer: OpaquePointer
    private static let slot = PerThread(MatchData.init)

    private init() {
        // One pair: only the whole match's offsets are read.
        pointer = pcre2_match_data_create_8(1, nil)
    }

    static var current: MatchData { slot.value }

    deinit { pcre2_match_data_free_8(pointer) }
}
