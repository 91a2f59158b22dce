/// Inside a type declaration that is parsed, the bodies of its methods and computed properties
/// (the bulk of a SwiftUI view: `var body: some View { … }`) matter to no rule that declares
/// `ParseScope.declarations` unless they hold one of its texts: those rules read stored
/// properties, initialisers, method names and previews. `PartialParse` blanks the others.
enum MemberBodies {
    /// Byte ranges between the braces of each `func` body and each `var` accessor block (a
    /// `var` without `=`: an initial value or observers stay) directly in the member block of
    /// the type declaration `piece` is; none when it is no type declaration.
    static func of(_ piece: DeclarationCut.Piece, in words: DeclarationCut.Words) -> [Range<Int>] {
        let tokens = words.tokens
        guard case .introducer(let introducer) = words.prefix(piece.tokens),
            words.isWord(introducer, in: typeIntroducers)
        else { return [] }
        var brace = introducer + 1
        while brace < piece.tokens.upperBound, !words.isPunctuation(brace, UInt8(ascii: "{")) {
            brace = words.partner[brace] > brace ? words.partner[brace] + 1 : brace + 1
        }
        guard brace < piece.tokens.upperBound else { return [] }
        var bodies: [Range<Int>] = []
        var member: String?
        var assigns = false
        var index = brace + 1
        let close = words.partner[brace]
        while index < close {
            switch tokens[index].kind {
            case .directive, .punctuation(UInt8(ascii: "@")):
                member = nil
            case .punctuation(UInt8(ascii: "=")):
                assigns = true
            case .punctuation(UInt8(ascii: ".")):
                // `.init`, `.class`: member names, not keywords.
                index += 1
            case .punctuation(UInt8(ascii: "{")):
                let end = words.partner[index]
                if member == "func" || (member == "var" && !assigns) {
                    bodies.append(tokens[index].range.upperBound..<tokens[end].range.lowerBound)
                }
                index = end
            case .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "[")):
                index = words.partner[index]
            case .word where words.isWord(index, in: memberIntroducers):
                member = words.text(index)
                assigns = false
            default:
                break
            }
            index += 1
        }
        return bodies
    }

    private static let typeIntroducers: Set<String> = ["struct", "class", "enum", "actor", "extension"]
    private static let memberIntroducers: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "case", "typealias", "associatedtype", "struct", "class",
        "enum", "actor", "extension", "protocol", "macro"
    ]
}
