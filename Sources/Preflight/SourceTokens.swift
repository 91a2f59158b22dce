import Foundation
import ScanEngine

/// The tokens of Swift or C-family (C, Objective-C, C++) source that a release build compiles:
/// identifiers and single punctuation bytes, with comments, string and character literals,
/// directive lines and the branches only debug builds compile (`#if DEBUG`, `#ifdef DEBUG`,
/// `#if DEBUG && …`, the `#else` of `#if !DEBUG`) left out. Enough to tell a call from a mention
/// in prose, without parsing: a hot loop over the bytes, one array of small tokens per file.
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

    /// One `#if` being read: whether its current branch is compiled only in debug builds, and
    /// whether the one around it is.
    private struct Conditional {
        var skipping: Bool
        var outerSkipping: Bool
        /// `#if !DEBUG`: its `#else` is debug-only.
        var elseIsDebugOnly: Bool
    }

    private var conditionals: [Conditional] = []
    private var skipping: Bool { conditionals.last?.skipping ?? false }

    /// `debugFlags`: the compilation conditions a release build never sets (`DEBUG`, configured ones).
    init(_ bytes: borrowing ByteView, language: Language, debugFlags: Set<String> = ["DEBUG"]) {
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
                // A directive line (C: continued by a trailing backslash): `#import
                // <Foundation/NSUserDefaults.h>`, `#if DEBUG`.
                let start = index
                while index < count,
                    bytes[index] != UInt8(ascii: "\n")
                        || (language == .cFamily && index > 0 && bytes[index - 1] == UInt8(ascii: "\\"))
                {
                    index += 1
                }
                directive(
                    bytes.string((start + 1)..<index),
                    debugFlags: debugFlags)
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
            } else if Self.isIdentifierByte(byte) {
                let start = index
                while index < count, Self.isIdentifierByte(bytes[index]) { index += 1 }
                append(start, index - start, 0)
            } else {
                append(index, 1, byte)
                index += 1
            }
        }
    }

    /// Whether a Swift `#` at a line's start opens a conditional-compilation directive.
    private static func startsConditional(_ bytes: borrowing ByteView, at index: Int) -> Bool {
        for word in ["if", "elseif", "else", "endif"] {
            let end = index + word.utf8.count
            guard bytes.matches(word.utf8, at: index) else { continue }
            if end == bytes.count || !isIdentifierByte(bytes[end]) { return true }
        }
        return false
    }

    /// Follows `#if` / `#ifdef` / `#ifndef` / `#elseif` / `#elif` / `#else` / `#endif`.
    private mutating func directive(_ line: String, debugFlags: Set<String>) {
        let text =
            line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? line
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let keyword = words.first else { return }
        let condition = words.dropFirst().joined(separator: " ")
        let outer = skipping
        switch keyword {
        case "if", "ifdef":
            let debugOnly = Self.isDebugOnly(condition, debugFlags)
            conditionals.append(
                Conditional(
                    skipping: outer || debugOnly, outerSkipping: outer,
                    elseIsDebugOnly: Self.isNegatedDebugFlag(condition, debugFlags)))
        case "ifndef":
            conditionals.append(
                Conditional(skipping: outer, outerSkipping: outer, elseIsDebugOnly: debugFlags.contains(condition)))
        case "elseif", "elif":
            guard var last = conditionals.popLast() else { return }
            last.skipping = last.outerSkipping || Self.isDebugOnly(condition, debugFlags)
            last.elseIsDebugOnly = false
            conditionals.append(last)
        case "else":
            guard var last = conditionals.popLast() else { return }
            last.skipping = last.outerSkipping || last.elseIsDebugOnly
            conditionals.append(last)
        case "endif":
            _ = conditionals.popLast()
        default:
            return
        }
    }

    /// `DEBUG`, `defined(DEBUG)`, `DEBUG && os(iOS)`: a condition no release build meets.
    private static func isDebugOnly(_ condition: String, _ debugFlags: Set<String>) -> Bool {
        guard !condition.contains("||") else { return false }
        return condition.components(separatedBy: "&&").contains { conjunct in
            debugFlags.contains(strippedFlag(conjunct))
        }
    }

    /// `!DEBUG`, `!defined(DEBUG)`: its `#else` is what only debug builds compile.
    private static func isNegatedDebugFlag(_ condition: String, _ debugFlags: Set<String>) -> Bool {
        let trimmed = condition.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("!") && debugFlags.contains(strippedFlag(String(trimmed.dropFirst())))
    }

    private static func strippedFlag(_ text: String) -> String {
        var flag = text.trimmingCharacters(in: .whitespaces)
        if flag.hasPrefix("defined") { flag = String(flag.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        while flag.hasPrefix("(") && flag.hasSuffix(")") {
            flag = String(flag.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return flag
    }

    private mutating func append(_ start: Int, _ length: Int, _ punctuation: UInt8) {
        guard start <= Int(Int32.max) else { return }
        tokens.append(Token(start: Int32(start), length: Int32(min(length, Int(Int32.max))), punctuation: punctuation))
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
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
