import ScanEngine
import ShipcheckCore

/// The tokens of Swift or C-family (C, Objective-C, C++) source that a release build compiles:
/// identifiers and single punctuation bytes, with comments, string and character literals,
/// directive lines and the branches a release build never compiles left out. Which branches
/// those are is `ReleaseBuildFlags`' verdict on the enclosing clauses, the one the source rules
/// get for the same `#if`s. Enough to tell a call from a mention in prose, without parsing: a
/// hot loop over the bytes, one array of small tokens per file; only directive lines are parsed.
struct SourceTokens {
    enum Language { case swift, cFamily }

    struct Token {
        /// Byte offset of the first byte.
        var start: Int32
        var length: Int32
        /// 0 for an identifier (or number), else the punctuation byte.
        var punctuation: UInt8

        var isIdentifier: Bool { punctuation == 0 }
    }

    private(set) var tokens: [Token] = []

    /// One `#if` being read: the requirement of its current branch (its own condition and the
    /// negation of every earlier branch's) and of a branch still to come (no earlier one taken).
    private struct Conditional {
        var branch: ReleaseCondition
        var noneTaken: ReleaseCondition
        var branches = 1
    }

    /// Past this many `#if`s deep, or branches of one `#if`, the requirement stops growing: the
    /// deeper `#if`s are left out of it, and the earlier branches become one unknown that only
    /// appears un-negated. Either can only call excluded code compiled, never the reverse, and
    /// a hostile file cannot make every directive cost as much as the file's directives.
    private static let maximumDepth = 32
    private static let maximumBranches = 32

    private var conditionals: [Conditional] = []
    /// Whether a release build never compiles the current branch.
    private var skipping = false

    /// `flags`: what a release build sets (`DEBUG` never, configured flags as configured).
    init(_ bytes: borrowing ByteView, language: Language, flags: ReleaseBuildFlags = ReleaseBuildFlags()) {
        let count = bytes.count
        var index = 0
        var atLineStart = true
        func skipString(from start: Int, quote: UInt8) -> Int {
            var position = start
            while position < count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\\") {
                    position += 2
                    continue
                }
                if byte == quote || byte == UInt8(ascii: "\n") { return position + 1 }
                position += 1
            }
            return count
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                atLineStart = true
                index += 1
                continue
            }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
                continue
            }
            let next: UInt8 = index + 1 < count ? bytes[index + 1] : 0
            let lineStart = atLineStart
            atLineStart = false
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                while index < count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                // Swift block comments nest; C ones do not.
                var depth = 1
                index += 2
                while index < count, depth > 0 {
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        index += 2
                    } else if language == .swift, bytes[index] == UInt8(ascii: "/"), index + 1 < count,
                        bytes[index + 1] == UInt8(ascii: "*")
                    {
                        depth += 1
                        index += 2
                    } else {
                        if bytes[index] == UInt8(ascii: "\n") { atLineStart = true }
                        index += 1
                    }
                }
            } else if byte == UInt8(ascii: "#") && lineStart
                && (language == .cFamily || Self.startsConditional(bytes, at: index + 1))
            {
                // A directive line (C: continued by a trailing backslash; Swift: by a trailing
                // `&&` or `||`): `#import <Foundation/NSUserDefaults.h>`, `#if DEBUG`.
                let start = index
                while index < count,
                    bytes[index] != UInt8(ascii: "\n")
                        || (language == .cFamily && index > 0 && bytes[index - 1] == UInt8(ascii: "\\"))
                        || (language == .swift && Self.endsWithLogicalOperator(bytes, before: index))
                {
                    index += 1
                }
                directive(bytes.string((start + 1)..<index), language: language, flags: flags)
            } else if skipping {
                // Inside a debug-only branch: nothing but directives, comments and literals matters.
                index += 1
                continue
            } else if byte == UInt8(ascii: "\"") || (language == .cFamily && byte == UInt8(ascii: "'")) {
                if language == .swift, next == UInt8(ascii: "\""), index + 2 < count,
                    bytes[index + 2] == UInt8(ascii: "\"")
                {
                    index = Self.skipMultiLine(bytes, from: index + 3, hashes: 0)
                } else {
                    index = skipString(from: index + 1, quote: byte)
                }
            } else if language == .swift && byte == UInt8(ascii: "#")
                && (next == UInt8(ascii: "#") || next == UInt8(ascii: "\""))
            {
                // A raw string: #"…"#, ##"…"##, #"""…"""#.
                var hashes = 0
                while index + hashes < count, bytes[index + hashes] == UInt8(ascii: "#") { hashes += 1 }
                let open = index + hashes
                guard open < count, bytes[open] == UInt8(ascii: "\"") else {
                    append(index, 1, byte)
                    index += 1
                    continue
                }
                let multiLine =
                    open + 2 < count && bytes[open + 1] == UInt8(ascii: "\"") && bytes[open + 2] == UInt8(ascii: "\"")
                index =
                    multiLine
                    ? Self.skipMultiLine(bytes, from: open + 3, hashes: hashes)
                    : Self.skipRaw(bytes, from: open + 1, hashes: hashes)
            } else if ByteSearch.isIdentifierByte(byte) {
                let start = index
                while index < count, ByteSearch.isIdentifierByte(bytes[index]) { index += 1 }
                append(start, index - start, 0)
            } else {
                append(index, 1, byte)
                index += 1
            }
        }
    }

    /// Whether the line ending at `end` ends with `&&` or `||` (trailing spaces aside): a Swift
    /// condition goes on on the next line.
    private static func endsWithLogicalOperator(_ bytes: borrowing ByteView, before end: Int) -> Bool {
        var last = end - 1
        while last > 0,
            bytes[last] == UInt8(ascii: " ") || bytes[last] == UInt8(ascii: "\t")
                || bytes[last] == UInt8(ascii: "\r")
        {
            last -= 1
        }
        guard last > 0 else { return false }
        let byte = bytes[last]
        return (byte == UInt8(ascii: "&") || byte == UInt8(ascii: "|")) && bytes[last - 1] == byte
    }

    /// Whether a Swift `#` at a line's start opens a conditional-compilation directive.
    private static func startsConditional(_ bytes: borrowing ByteView, at index: Int) -> Bool {
        for word in ["if", "elseif", "else", "endif"] {
            let end = index + word.utf8.count
            guard bytes.matches(word.utf8, at: index) else { continue }
            if end == bytes.count || !ByteSearch.isIdentifierByte(bytes[end]) { return true }
        }
        return false
    }

    /// Follows `#if` / `#ifdef` / `#ifndef` / `#elseif` / `#elif` / `#elifdef` / `#elifndef` /
    /// `#else` / `#endif`: `line` is the directive after its `#`.
    private mutating func directive(_ line: String, language: Language, flags: ReleaseBuildFlags) {
        let text = line.drop { $0 == " " || $0 == "\t" }
        let keyword = text.prefix { $0.isLetter }
        let rest = text.dropFirst(keyword.count)
        func condition() -> ReleaseCondition {
            flags.condition(ofDirective: rest, dialect: language == .swift ? .swift : .c)
        }
        /// `#ifdef NAME`: whether NAME is defined.
        func defined() -> ReleaseCondition {
            flags.defined(
                String(rest.drop { $0 == " " || $0 == "\t" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
        }
        switch keyword {
        case "if": open(condition())
        case "ifdef": open(defined())
        case "ifndef": open(.not(defined()))
        case "elseif", "elif": next(condition())
        case "elifdef": next(defined())
        case "elifndef": next(.not(defined()))
        case "else": next(nil)
        case "endif": _ = conditionals.popLast()
        default: return
        }
        // Deeper `#if`s do not count (maximumDepth): the verdict is the one before.
        guard conditionals.count <= Self.maximumDepth else { return }
        skipping = flags.verdict(ReleaseCondition.all(conditionals.map(\.branch))) == .excluded
    }

    private mutating func open(_ condition: ReleaseCondition) {
        conditionals.append(Conditional(branch: condition, noneTaken: .not(condition)))
    }

    /// The next branch of the innermost `#if`, taken under `condition` (nil: `#else`) when no
    /// earlier one was.
    private mutating func next(_ condition: ReleaseCondition?) {
        guard var last = conditionals.popLast() else { return }
        guard let condition else {
            last.branch = last.noneTaken
            conditionals.append(last)
            return
        }
        last.branch = .and(last.noneTaken, condition)
        last.branches += 1
        last.noneTaken =
            last.branches < Self.maximumBranches
            ? .and(last.noneTaken, .not(condition)) : .atom("(no earlier branch taken)")
        conditionals.append(last)
    }

    private mutating func append(_ start: Int, _ length: Int, _ punctuation: UInt8) {
        guard start <= Int(Int32.max) else { return }
        tokens.append(Token(start: Int32(start), length: Int32(min(length, Int(Int32.max))), punctuation: punctuation))
    }

    /// Past the `"""` (followed by `hashes` `#`) that closes a multi-line string.
    private static func skipMultiLine(_ bytes: borrowing ByteView, from start: Int, hashes: Int) -> Int {
        var index = start
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), hashes == 0 {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "\""),
                bytes[index + 2] == UInt8(ascii: "\""),
                closes(bytes, at: index + 3, hashes: hashes)
            {
                return index + 3 + hashes
            }
            index += 1
        }
        return bytes.count
    }

    /// Past the `"` followed by `hashes` `#` that closes a single-line raw string.
    private static func skipRaw(_ bytes: borrowing ByteView, from start: Int, hashes: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            if bytes[index] == UInt8(ascii: "\""), closes(bytes, at: index + 1, hashes: hashes) {
                return index + 1 + hashes
            }
            index += 1
        }
        return index
    }

    private static func closes(_ bytes: borrowing ByteView, at index: Int, hashes: Int) -> Bool {
        guard index + hashes <= bytes.count else { return false }
        return (0..<hashes).allSatisfy { bytes[index + $0] == UInt8(ascii: "#") }
    }
}
