/// A token of Swift as far as cutting a file into declarations needs: words, brackets and
/// punctuation, with strings (every form) and comments already skipped as one unit or as trivia.
struct CutToken {
    enum Kind: Equatable {
        /// An identifier, keyword or number (a backticked name keeps its backticks).
        case word
        /// A string literal of any form, interpolations included.
        case string
        /// `#if`, `#elseif`, `#else`, `#endif`.
        case directive
        /// `#` followed by a name that is not a directive: a macro, `#warning`, `#available`.
        case poundWord
        /// One punctuation or operator byte.
        case punctuation(UInt8)
    }

    var kind: Kind
    var range: Range<Int>
    /// Whether no token comes before it on its line.
    var firstOnLine: Bool
    /// Just past the first newline after the token that is not inside a comment or string
    /// (the end of the file when there is none): where a cut after it may fall.
    var lineEnd: Int
}

/// Why a file is not cut: it is parsed whole instead.
struct CutRefusal: Error {
    var reason: String
}

/// Splits Swift bytes into `CutToken`s. It knows comments (nested `/* */`), string literals
/// (`"…"`, `"""…"""`, raw `#"…"#` with any number of `#`, interpolations holding strings),
/// and refuses what it cannot be sure of: unterminated literals, regex literals (whose bytes
/// could hold quotes or braces), a `'`.
struct CutLexer {
    private let bytes: [UInt8]
    private var position = 0
    private var tokens: [CutToken] = []
    /// Tokens whose `lineEnd` waits for the next newline.
    private var openLineEnds: [Int] = []
    private var lineHasToken = false

    static func tokens(of bytes: [UInt8]) throws(CutRefusal) -> [CutToken] {
        var lexer = CutLexer(bytes: bytes)
        try lexer.run()
        return lexer.tokens
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func run() throws(CutRefusal) {
        while position < bytes.count {
            let current = bytes[position]
            switch current {
            case UInt8(ascii: "\n"):
                closeLine(after: position + 1)
                position += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "/"):
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "*"):
                try skipBlockComment()
            case UInt8(ascii: "/"):
                // Division is spelled with blanks around it or as `/=`; anything else may be a
                // regex literal, whose bytes are not Swift tokens.
                let before = position > 0 ? bytes[position - 1] : UInt8(ascii: " ")
                let after = byte(at: position + 1) ?? UInt8(ascii: " ")
                guard Self.isBlank(before) && (Self.isBlank(after) || after == UInt8(ascii: "=")) else {
                    throw CutRefusal(reason: "a '/' that may start a regex literal")
                }
                add(.punctuation(current), from: position, to: position + 1)
            case UInt8(ascii: "\""):
                let start = position
                try skipString(hashes: 0)
                add(.string, from: start, to: position)
            case UInt8(ascii: "#"):
                try lexPound()
            case UInt8(ascii: "`"):
                let start = position
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "`") {
                    if bytes[position] == UInt8(ascii: "\n") { throw CutRefusal(reason: "an unterminated `name`") }
                    position += 1
                }
                guard position < bytes.count else { throw CutRefusal(reason: "an unterminated `name`") }
                position += 1
                add(.word, from: start, to: position)
            case UInt8(ascii: "'"):
                throw CutRefusal(reason: "a ' outside a string")
            default:
                if Self.isWordByte(current) {
                    let start = position
                    while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
                    add(.word, from: start, to: position)
                } else {
                    add(.punctuation(current), from: position, to: position + 1)
                }
            }
        }
        closeLine(after: bytes.count)
    }

    private mutating func add(_ kind: CutToken.Kind, from start: Int, to end: Int) {
        if position < end { position = end }
        tokens.append(CutToken(kind: kind, range: start..<end, firstOnLine: !lineHasToken, lineEnd: bytes.count))
        openLineEnds.append(tokens.count - 1)
        lineHasToken = true
    }

    private mutating func closeLine(after offset: Int) {
        for index in openLineEnds { tokens[index].lineEnd = offset }
        openLineEnds.removeAll(keepingCapacity: true)
        lineHasToken = false
    }

    /// `#if`-family directives, `#name`, raw strings (`#"`, `##"""`), refusing `#/` regexes.
    private mutating func lexPound() throws(CutRefusal) {
        let start = position
        var hashes = 0
        while byte(at: position + hashes) == UInt8(ascii: "#") { hashes += 1 }
        let next = byte(at: position + hashes)
        if next == UInt8(ascii: "\"") {
            position += hashes
            try skipString(hashes: hashes)
            add(.string, from: start, to: position)
            return
        }
        guard hashes == 1, let next, Self.isWordByte(next) else {
            throw CutRefusal(reason: next == UInt8(ascii: "/") ? "a #/ regex literal" : "a '#' of unknown use")
        }
        var end = position + 1
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        add(Self.directives.contains(name) ? .directive : .poundWord, from: start, to: end)
    }

    private static let directives: Set<String> = ["if", "elseif", "else", "endif"]

    /// Skips a string literal starting at the `"` at `position`, `hashes` being its `#` delimiter
    /// count (already skipped); leaves `position` after its closing delimiter.
    private mutating func skipString(hashes: Int) throws(CutRefusal) {
        let quote = UInt8(ascii: "\"")
        let multiline = byte(at: position + 1) == quote && byte(at: position + 2) == quote
        position += multiline ? 3 : 1
        while position < bytes.count {
            let current = bytes[position]
            if current == UInt8(ascii: "\\"), delimiterHashes(at: position + 1, count: hashes) {
                position += 1 + hashes
                if byte(at: position) == UInt8(ascii: "(") {
                    try skipInterpolation()
                } else {
                    // An escaped character: never the end of the literal.
                    position += 1
                }
                continue
            }
            if current == UInt8(ascii: "\n"), !multiline {
                throw CutRefusal(reason: "an unterminated string literal")
            }
            if current == quote, !multiline || (byte(at: position + 1) == quote && byte(at: position + 2) == quote) {
                let closing = position + (multiline ? 3 : 1)
                if delimiterHashes(at: closing, count: hashes) {
                    position = closing + hashes
                    return
                }
            }
            position += 1
        }
        throw CutRefusal(reason: "an unterminated string literal")
    }

    private func delimiterHashes(at offset: Int, count: Int) -> Bool {
        guard offset + count <= bytes.count else { return false }
        return bytes[offset..<(offset + count)].allSatisfy { $0 == UInt8(ascii: "#") }
    }

    /// Skips `( … )` of an interpolation: code, which may hold strings, comments and parentheses.
    private mutating func skipInterpolation() throws(CutRefusal) {
        var depth = 0
        while position < bytes.count {
            let current = bytes[position]
            switch current {
            case UInt8(ascii: "("):
                depth += 1
                position += 1
            case UInt8(ascii: ")"):
                depth -= 1
                position += 1
                if depth == 0 { return }
            case UInt8(ascii: "\""):
                try skipString(hashes: 0)
            case UInt8(ascii: "#")
            where byte(at: position + 1) == UInt8(ascii: "\"")
                || byte(at: position + 1) == UInt8(ascii: "#"):
                var hashes = 0
                while byte(at: position + hashes) == UInt8(ascii: "#") { hashes += 1 }
                guard byte(at: position + hashes) == UInt8(ascii: "\"") else {
                    throw CutRefusal(reason: "a '#' of unknown use in an interpolation")
                }
                position += hashes
                try skipString(hashes: hashes)
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "*"):
                try skipBlockComment()
            case UInt8(ascii: "/") where byte(at: position + 1) == UInt8(ascii: "/"):
                throw CutRefusal(reason: "a comment in an interpolation")
            case UInt8(ascii: "/"), UInt8(ascii: "'"):
                throw CutRefusal(reason: "a regex literal or ' in an interpolation")
            default:
                position += 1
            }
        }
        throw CutRefusal(reason: "an unterminated interpolation")
    }

    /// Skips `/* … */`, nested comments included.
    private mutating func skipBlockComment() throws(CutRefusal) {
        var depth = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "/"), byte(at: position + 1) == UInt8(ascii: "*") {
                depth += 1
                position += 2
            } else if bytes[position] == UInt8(ascii: "*"), byte(at: position + 1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else {
                position += 1
            }
        }
        throw CutRefusal(reason: "an unterminated /* comment")
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            true
        default: false
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
