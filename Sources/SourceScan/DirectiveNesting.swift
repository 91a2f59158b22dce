import ScanEngine
import ShipcheckCore

/// How deep `#if` directives and `[` brackets nest in a Swift file, measured before it is
/// parsed: two shapes swift-syntax 603 cannot take at any depth.
///
/// swift-syntax bounds its recursion with `maximumNestingLevel` for brackets, but its lookahead
/// over `#if` blocks (`consumeIfConfigOfAttributes`) recurses once per nested `#if` without that
/// bound: 10,000 nested `#if`s crash the process (SIGSEGV on the stack guard page). The depth of
/// `#if` directives is therefore measured first with a byte scan (`SwiftText.problem(in:path:)`)
/// and a file nested deeper than any hand-written code is an input error instead.
///
/// Its type lookahead tries both readings of every `[` (array type, inline-array type), so the
/// work doubles with each level of nested brackets: the 76 levels the fuzzer found would take
/// longer than anyone waits (timings in docs/performance.md, "Limits that bound the work").
package enum DirectiveNesting {
    /// Far deeper than real code nests `#if` (a handful of levels), shallow enough for the
    /// parser's recursion on a 512 KiB secondary-thread stack in a debug build.
    package static let maximum = 64

    /// The line where `#if` nesting first exceeds the limit, or nil. Counts every `#if` / `#endif`
    /// word, in code or not: a directive quoted in a comment or string can shift the count by
    /// one, which matters only for files nested about 64 deep, and no one writes those.
    package static func lineExceedingMaximum(in bytes: [UInt8]) -> Int? {
        bytes.withByteView { buffer -> Int? in
            var depth = 0
            var position = 0
            while let hash = buffer.firstIndex(of: UInt8(ascii: "#"), from: position) {
                if matchesWord(ifWord, in: buffer, at: hash + 1) {
                    depth += 1
                    if depth > maximum { return LineTable(buffer).position(of: hash).line }
                } else if matchesWord(endifWord, in: buffer, at: hash + 1) {
                    depth = max(0, depth - 1)
                }
                position = hash + 1
            }
            return nil
        }
    }

    /// Deeper than array literals and types are nested in real code, and about 2^16 steps of
    /// lookahead at worst (milliseconds).
    package static let maximumBrackets = 16

    /// The line where `[` nesting first exceeds `maximumBrackets`, or nil. Brackets in comments
    /// and string literals do not count (a bracket parser's tests quote plenty).
    package static func lineExceedingMaximumBrackets(in bytes: [UInt8]) -> Int? {
        bytes.withByteView { buffer -> Int? in
            let count = buffer.count
            let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"),
                newline = UInt8(ascii: "\n")
            var depth = 0
            var index = 0
            while index < count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "[") {
                    depth += 1
                    if depth > maximumBrackets { return LineTable(buffer).position(of: index).line }
                } else if byte == UInt8(ascii: "]") {
                    depth = max(0, depth - 1)
                } else if byte == slash && Self.byte(at: index + 1, in: buffer) == slash {
                    index = buffer.firstIndex(of: newline, from: index) ?? count
                } else if byte == slash && Self.byte(at: index + 1, in: buffer) == star {
                    var nesting = 1
                    index += 2
                    while index < count && nesting > 0 {
                        if buffer[index] == slash && Self.byte(at: index + 1, in: buffer) == star {
                            nesting += 1
                            index += 1
                        } else if buffer[index] == star && Self.byte(at: index + 1, in: buffer) == slash {
                            nesting -= 1
                            index += 1
                        }
                        index += 1
                    }
                    continue
                } else if byte == quote && Self.byte(at: index + 1, in: buffer) == quote
                    && Self.byte(at: index + 2, in: buffer) == quote
                {
                    index += 3
                    while index < count
                        && !(buffer[index] == quote && Self.byte(at: index + 1, in: buffer) == quote
                            && Self.byte(at: index + 2, in: buffer) == quote)
                    {
                        index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 3
                    continue
                } else if byte == quote {
                    index += 1
                    while index < count && buffer[index] != quote && buffer[index] != newline {
                        index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                }
                index += 1
            }
            return nil
        }
    }

    private static let ifWord = Array("if".utf8), endifWord = Array("endif".utf8)

    /// The byte at `offset`, or 0 past the end.
    private static func byte(at offset: Int, in bytes: borrowing ByteView) -> UInt8 {
        offset < bytes.count ? bytes[offset] : 0
    }

    /// `word` at `start`, not followed by an identifier character (`#if` but not `#ifdef`).
    private static func matchesWord(_ word: [UInt8], in bytes: borrowing ByteView, at start: Int) -> Bool {
        let length = word.count
        guard bytes.matches(word, at: start) else { return false }
        guard start + length < bytes.count else { return true }
        let next = bytes[start + length]
        let isIdentifier =
            next == UInt8(ascii: "_") || (next >= 0x30 && next <= 0x39) || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)
            || next >= 0x80
        return !isIdentifier
    }
}
