/// The type declarations of a piece left out of the parse, for the facts it leaves
/// (`SwiftTypeFacts`): the header of every `class`, `actor`, `struct`, `enum` and `extension`
/// the facts collector would visit — at the top, and nested in type bodies, never in function
/// bodies, accessors or initial values (which it skips). A header runs from the keyword to the
/// body's `{`; parsed as `header {}`, it gives the same name and inheritance clause.
enum TypeHeaders {
    enum Outcome {
        /// The byte ranges of the headers (none when the piece declares no type).
        case headers([Range<Int>])
        /// The piece may hold a type the scan cannot place: it is parsed.
        case unsure
    }

    private static let typeWords: Set<String> = ["class", "struct", "enum", "actor", "extension"]
    private static let typeIntroducers = typeWords.union(["protocol"])
    /// Declarations whose braces hold only what the collector skips.
    private static let bodyIntroducers: Set<String> = ["func", "init", "deinit", "subscript", "var", "let"]

    static func of(_ piece: DeclarationCut.Piece, in words: DeclarationCut.Words) -> Outcome {
        let mentionsTypes = piece.tokens.contains { index in
            words.isWord(index, in: typeWords) && !(index > 0 && words.isPunctuation(index - 1, UInt8(ascii: ".")))
        }
        guard mentionsTypes else { return .headers([]) }
        guard case .introducer(let introducer) = words.prefix(piece.tokens),
            words.isWord(introducer, in: typeIntroducers),
            !(piece.tokens.lowerBound..<introducer).contains(where: { words.isPunctuation($0, UInt8(ascii: "{")) })
        else { return .unsure }
        var headers: [Range<Int>] = []
        guard let end = scanType(at: introducer, words, &headers), end == piece.tokens.upperBound else {
            return .unsure
        }
        return .headers(headers)
    }

    /// Scans the type declaration whose keyword is at `index`; returns the index after its
    /// closing brace, or nil when unsure.
    private static func scanType(at index: Int, _ words: DeclarationCut.Words, _ headers: inout [Range<Int>]) -> Int? {
        let tokens = words.tokens
        guard index + 1 < tokens.count, tokens[index + 1].kind == .word, !words.isKeyword(index + 1) else { return nil }
        var brace = index + 2
        while brace < tokens.count, !words.isPunctuation(brace, UInt8(ascii: "{")) {
            switch tokens[brace].kind {
            case .word: brace += 1
            case .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "[")):
                let close = words.partner[brace]
                guard !(brace..<close).contains(where: { words.isPunctuation($0, UInt8(ascii: "{")) }) else {
                    return nil
                }
                brace = close + 1
            case .punctuation(let byte) where ![UInt8(ascii: ";"), UInt8(ascii: "}")].contains(byte): brace += 1
            default: return nil
            }
        }
        guard brace < tokens.count else { return nil }
        if !words.isWord(index, in: ["protocol"]) {
            headers.append(tokens[index].range.lowerBound..<tokens[brace].range.lowerBound)
        }
        let close = words.partner[brace]
        var member = brace + 1
        var introducer: String?
        while member < close {
            switch tokens[member].kind {
            case .directive:
                introducer = nil
                member += 1
                while member < close, !tokens[member].firstOnLine { member += 1 }
                continue
            case .poundWord: return nil
            case .punctuation(UInt8(ascii: "@")):
                introducer = nil
            case .punctuation(UInt8(ascii: "{")):
                guard let introducer, bodyIntroducers.contains(introducer) else { return nil }
                member = words.partner[member]
            case .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "[")):
                let end = words.partner[member]
                if introducer == nil, (member..<end).contains(where: { words.isPunctuation($0, UInt8(ascii: "{")) }) {
                    return nil
                }
                member = end
            case .punctuation(UInt8(ascii: ".")):
                // `.class`, `.enum`: member names, not keywords.
                member += 1
            case .word:
                let word = words.text(member)
                if typeIntroducers.contains(word) && word != "class" && word != "actor" {
                    guard let end = scanType(at: member, words, &headers) else { return nil }
                    member = end
                    introducer = nil
                    continue
                }
                if word == "class" {
                    if words.isKeyword(member + 1) {
                        member += 1
                        continue
                    }
                    guard let end = scanType(at: member, words, &headers) else { return nil }
                    member = end
                    introducer = nil
                    continue
                }
                if word == "actor", member + 1 < close, tokens[member + 1].kind == .word, !words.isKeyword(member + 1) {
                    guard let end = scanType(at: member, words, &headers) else { return nil }
                    member = end
                    introducer = nil
                    continue
                }
                if bodyIntroducers.contains(word) || ["case", "typealias", "associatedtype"].contains(word) {
                    introducer = word
                }
            default:
                break
            }
            member += 1
        }
        return close + 1
    }
}
