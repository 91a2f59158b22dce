import ShipcheckCore

/// How deep `#if` directives nest in a Swift file, measured before it is parsed.
///
/// swift-syntax bounds its recursion with `maximumNestingLevel` for brackets, but its lookahead
/// over `#if` blocks (`consumeIfConfigOfAttributes`) recurses once per nested `#if` without that
/// bound: 10,000 nested `#if`s crash the process (SIGSEGV on the stack guard page). The depth of
/// `#if` directives is therefore measured first with a byte scan (`SwiftSource.text(of:path:)`)
/// and a file nested deeper than any hand-written code is an input error instead.
public enum DirectiveNesting {
    /// Far deeper than real code nests `#if` (a handful of levels), shallow enough for the
    /// parser's recursion on a 512 KiB secondary-thread stack in a debug build.
    public static let maximum = 64

    /// The line where `#if` nesting first exceeds the limit, or nil. Counts every `#if` / `#endif`
    /// word, in code or not: a directive quoted in a comment or string can shift the count by
    /// one, which matters only for files nested about 64 deep, and no one writes those.
    public static func lineExceedingMaximum(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { buffer -> Int? in
            var depth = 0
            var position = 0
            while let hash = ByteSearch.find(byte: UInt8(ascii: "#"), in: buffer, from: position) {
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

    private static let ifWord = Array("if".utf8), endifWord = Array("endif".utf8)

    /// `word` at `start`, not followed by an identifier character (`#if` but not `#ifdef`).
    private static func matchesWord(_ word: [UInt8], in bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        let length = word.count
        guard start + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[start + offset] != word[offset] { return false }
        guard start + length < bytes.count else { return true }
        let next = bytes[start + length]
        let isIdentifier = next == UInt8(ascii: "_") || (next >= 0x30 && next <= 0x39) || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A) || next >= 0x80
        return !isIdentifier
    }
}
