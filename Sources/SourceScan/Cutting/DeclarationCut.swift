/// A Swift file cut into its top-level pieces: declarations (or runs of top-level statements),
/// and the lines of the `#if` / `#elseif` / `#else` / `#endif` directives between them. Every
/// byte of the file is in exactly one piece, in order; a piece starts at the start of a line
/// and takes the comments and blank lines above it. Any doubt refuses the cut (`CutRefusal`)
/// and the file is parsed whole: a `#if` whose clauses do not close at the depth they opened,
/// unbalanced brackets, a piece that starts as a continuation (`.member`, an operator), a
/// directive condition running onto the next line.
struct DeclarationCut {
    struct Piece {
        enum Kind: Equatable {
            /// A `#if`-family directive line.
            case directive
            /// A declaration or statements; `introducer` is its first keyword after attributes
            /// and modifiers (`struct`, `func`, `import`…), nil for statements and macros.
            case declaration(introducer: String?)
        }

        var kind: Kind
        /// Byte range in the file.
        var range: Range<Int>
        /// Its tokens, as indices into `tokens`.
        var tokens: Range<Int>
    }

    let tokens: [CutToken]
    let pieces: [Piece]
    /// For each bracket token, the index of the bracket that closes (or opens) it; -1 elsewhere.
    let partner: [Int]

    init(bytes: [UInt8]) throws(CutRefusal) {
        tokens = try CutLexer.tokens(of: bytes)
        partner = try Self.partners(of: tokens)
        pieces = try Self.pieces(of: tokens, partner: partner, bytes: bytes)
    }

    /// The text of a word token.
    static func text(of token: CutToken, in bytes: [UInt8]) -> String {
        String(decoding: bytes[token.range], as: UTF8.self)
    }

    /// Brackets `(` `[` `{` matched with their closers; `#if` clauses must open and close at
    /// the same bracket depth.
    private static func partners(of tokens: [CutToken]) throws(CutRefusal) -> [Int] {
        var partner = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        var directiveDepths: [Int] = []
        let closers: [UInt8: UInt8] = [
            UInt8(ascii: ")"): UInt8(ascii: "("), UInt8(ascii: "]"): UInt8(ascii: "["),
            UInt8(ascii: "}"): UInt8(ascii: "{")
        ]
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "[")), .punctuation(UInt8(ascii: "{")):
                open.append(index)
            case .punctuation(let byte) where closers[byte] != nil:
                guard let opener = open.popLast(), tokens[opener].kind == .punctuation(closers[byte]!) else {
                    throw CutRefusal(reason: "unbalanced brackets")
                }
                partner[opener] = index
                partner[index] = opener
            case .directive:
                guard token.firstOnLine else { throw CutRefusal(reason: "a directive not at the start of a line") }
                switch token.range.count {
                case 3:  // #if
                    directiveDepths.append(open.count)
                case 6:  // #endif
                    guard directiveDepths.popLast() == open.count else { throw CutRefusal(reason: "unbalanced #if") }
                default:  // #else, #elseif
                    guard directiveDepths.last == open.count else { throw CutRefusal(reason: "unbalanced #if") }
                }
            default:
                break
            }
        }
        guard open.isEmpty else { throw CutRefusal(reason: "unbalanced brackets") }
        guard directiveDepths.isEmpty else { throw CutRefusal(reason: "unbalanced #if") }
        return partner
    }

    /// Words that begin a declaration at the start of a line: a new piece starts there.
    static let declarationStarts: Set<String> = [
        "import", "struct", "class", "enum", "actor", "extension", "protocol", "func", "let", "var", "typealias",
        "macro", "operator", "precedencegroup"
    ]
    /// Modifiers that may come before a declaration's keyword.
    static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "nonisolated",
        "indirect", "infix", "prefix", "postfix", "override", "convenience", "required", "dynamic", "lazy",
        "optional", "mutating", "nonmutating", "weak", "unowned", "distributed", "isolated", "consuming",
        "borrowing", "class"
    ]

    private static func pieces(of tokens: [CutToken], partner: [Int], bytes: [UInt8]) throws(CutRefusal) -> [Piece] {
        let words = Words(tokens: tokens, partner: partner, bytes: bytes)
        var pieces: [Piece] = []
        var start = 0, startToken = 0
        var index = 0
        var afterDirective = false
        func close(at end: Int, token: Int) {
            guard start < end || startToken < token else { return }
            let introducer: String? =
                if case .introducer(let at) = words.prefix(startToken..<token) { words.text(at) } else { nil }
            pieces.append(
                Piece(kind: .declaration(introducer: introducer), range: start..<end, tokens: startToken..<token))
            start = end
            startToken = token
        }
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .directive {
                close(at: index > 0 ? tokens[index - 1].lineEnd : 0, token: index)
                var end = index + 1
                while end < tokens.count, !tokens[end].firstOnLine { end += 1 }
                let condition = (index + 1)..<end
                guard tokens[end - 1].lineEnd == token.lineEnd,
                    condition.allSatisfy({ partner[$0] == -1 || condition.contains(partner[$0]) }),
                    condition.isEmpty || !words.continues(end - 1)
                else { throw CutRefusal(reason: "a directive condition running onto the next line") }
                pieces.append(Piece(kind: .directive, range: start..<token.lineEnd, tokens: index..<end))
                (start, startToken, index) = (token.lineEnd, end, end)
                afterDirective = true
                continue
            }
            if afterDirective {
                if case .punctuation(let byte) = token.kind, byte != UInt8(ascii: "@"), byte != UInt8(ascii: "(") {
                    throw CutRefusal(reason: "a clause starting with '\(Character(UnicodeScalar(byte)))'")
                }
                afterDirective = false
            } else if index > 0, token.firstOnLine, words.startsDeclaration(index),
                words.prefix(startToken..<index) != .prefixOnly, !words.continues(index - 1)
            {
                close(at: tokens[index - 1].lineEnd, token: index)
            }
            // Brackets are skipped whole: only depth 0 cuts.
            index = partner[index] > index ? partner[index] + 1 : index + 1
        }
        close(at: bytes.count, token: tokens.count)
        return pieces
    }

    /// Reads words and declaration prefixes off the tokens.
    struct Words {
        let tokens: [CutToken]
        let partner: [Int]
        let bytes: [UInt8]

        func text(_ index: Int) -> String { DeclarationCut.text(of: tokens[index], in: bytes) }

        /// Compares bytes, not strings: this runs on most tokens of the pieces left out.
        func isWord(_ index: Int, in set: Set<String>) -> Bool {
            guard index < tokens.count, tokens[index].kind == .word else { return false }
            let range = tokens[index].range
            return set.contains { $0.utf8.count == range.count && $0.utf8.elementsEqual(bytes[range]) }
        }

        func isPunctuation(_ index: Int, _ byte: UInt8) -> Bool {
            index < tokens.count && tokens[index].kind == .punctuation(byte)
        }

        func startsDeclaration(_ index: Int) -> Bool {
            switch tokens[index].kind {
            case .punctuation(UInt8(ascii: "@")), .poundWord: true
            case .word: isWord(index, in: declarationStarts) || isWord(index, in: modifiers)
            default: false
            }
        }

        /// Whether the line ending with this token goes on onto the next one.
        func continues(_ index: Int) -> Bool {
            switch tokens[index].kind {
            case .punctuation(let byte):
                byte != UInt8(ascii: "}") && byte != UInt8(ascii: ")") && byte != UInt8(ascii: "]")
            case .word: isWord(index, in: continuingWords)
            default: false
            }
        }

        enum Prefix: Equatable {
            /// The declaration keyword after the attributes and modifiers, at this index.
            case introducer(Int)
            /// Nothing but attributes and modifiers (or nothing).
            case prefixOnly
            /// Something else: a statement, a macro.
            case other
        }

        /// What `range` starts with past its attributes (`@Name`, `@Module.Name`,
        /// `@Name(arguments)`) and modifiers (`private(set)` too).
        func prefix(_ range: Range<Int>) -> Prefix {
            var index = range.lowerBound
            while index < range.upperBound {
                if isPunctuation(index, UInt8(ascii: "@")) {
                    index += 1
                    guard index < range.upperBound, tokens[index].kind == .word else { return .other }
                    index += 1
                    while isPunctuation(index, UInt8(ascii: ".")), index + 1 < range.upperBound { index += 2 }
                    if isPunctuation(index, UInt8(ascii: "(")),
                        tokens[index].range.lowerBound == tokens[index - 1].range.upperBound
                    {
                        index = partner[index] + 1
                    }
                    continue
                }
                guard tokens[index].kind == .word else { return .other }
                if isWord(index, in: introducers), !(isWord(index, in: ["class"]) && isKeyword(index + 1)) {
                    return .introducer(index)
                }
                guard isWord(index, in: modifiers) else { return .other }
                index += 1
                if isPunctuation(index, UInt8(ascii: "(")) { index = partner[index] + 1 }
            }
            return .prefixOnly
        }

        /// `class func`: `class` is a modifier when a keyword follows it.
        func isKeyword(_ index: Int) -> Bool {
            isWord(index, in: introducers) || isWord(index, in: modifiers)
                || isWord(index, in: ["case", "associatedtype"])
        }
    }

    /// Words that begin a declaration's keyword, after its attributes and modifiers.
    static let introducers = declarationStarts.union(["init", "deinit", "subscript"])
    /// Words after which a line goes on.
    private static let continuingWords: Set<String> = [
        "in", "where", "else", "try", "await", "return", "throws", "async", "is", "as", "rethrows"
    ]
}
