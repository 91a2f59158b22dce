import ScanEngine
import SwiftParser
import SwiftSyntax

/// What a source rule reads of a file besides the bytes (which suppressions and snippets come
/// from): the whole tree, or only some top-level declarations.
package enum ParseScope: Sendable {
    /// The rule looks across the whole file (the first declaration compiled in release, every
    /// store of a closure): the file is parsed whole.
    case wholeFile
    /// The rule finds nothing outside the top-level declarations these select (with the `#if`
    /// clauses around them and the file's imports, which every rule may read), and nothing in
    /// their method bodies and computed properties that hold none of the texts (`MemberBodies`).
    case declarations([DeclarationNeed])
}

/// Selects the top-level declarations holding a text (in code, a comment or a string: the cut
/// never reads more finely than bytes), optionally only those with a given keyword.
package struct DeclarationNeed: Sendable {
    var text: [UInt8]
    /// `extension`, `struct`…: only declarations introduced by it; nil: any.
    var introducer: String?

    package init(holding text: String, introducer: String? = nil) {
        self.text = Array(text.utf8)
        self.introducer = introducer
    }
}

/// A Swift file parsed only where rules look: the declarations the rules' `ParseScope`s
/// select, the `#if` directive lines, the imports, and the pieces whose types the cut cannot
/// place. Everything else is replaced by blanks that keep every newline, so the tree's
/// offsets, lines and columns are the file's own. The types declared in the blanked pieces
/// come from their headers (`TypeHeaders`), parsed on their own.
enum PartialParse {
    struct Outcome {
        var file: ParsedSwiftFile
        /// Top-level pieces, how many of them were parsed, and how many bodies of the members of
        /// those were left out (`MemberBodies`).
        var pieces: Int
        var parsedPieces: Int
        var bodiesLeftOut: Int
        /// Whether anything was left out: else the file was parsed whole.
        var isPartial: Bool { parsedPieces < pieces || bodiesLeftOut > 0 }
    }

    /// `bytes`: text `SwiftText` accepts.
    static func parse(bytes: [UInt8], path: String, needs: [DeclarationNeed]) throws(CutRefusal) -> Outcome {
        let cut = try DeclarationCut(bytes: bytes)
        let words = DeclarationCut.Words(tokens: cut.tokens, partner: cut.partner, bytes: bytes)
        var text = bytes
        var headers: [Range<Int>] = []
        var parsed = 0, bodiesLeftOut = 0
        let occurrences = occurrences(of: needs, in: bytes)
        for piece in cut.pieces {
            if keeps(piece, needs: needs, occurrences: occurrences) {
                parsed += 1
                for body in MemberBodies.of(piece, in: words)
                where !holds(body, needs, occurrences: occurrences) {
                    blank(body, in: &text)
                    bodiesLeftOut += 1
                }
                continue
            }
            switch TypeHeaders.of(piece, in: words) {
            case .unsure:
                parsed += 1
                continue
            case .headers(let found):
                headers += found
            }
            blank(piece.range, in: &text)
        }
        var factsOutsideTree = SwiftTypeFacts()
        if !headers.isEmpty {
            var headerText: [UInt8] = []
            for header in headers { headerText += bytes[header] + Array("\n{}\n".utf8) }
            let headerTree = Parser.parse(source: String(decoding: headerText, as: UTF8.self))
            guard !headerTree.hasError else { throw CutRefusal(reason: "a type header that does not parse alone") }
            factsOutsideTree = SwiftTypeFacts(tree: headerTree)
        }
        let isPartial = parsed < cut.pieces.count || bodiesLeftOut > 0
        let tree = isPartial ? Parser.parse(source: String(decoding: text, as: UTF8.self)) : nil
        let file = ParsedSwiftFile(
            checked: bytes, path: path, tree: tree, factsOutsideTree: factsOutsideTree)
        return Outcome(file: file, pieces: cut.pieces.count, parsedPieces: parsed, bodiesLeftOut: bodiesLeftOut)
    }

    /// Where each need's text starts in the file.
    private static func occurrences(of needs: [DeclarationNeed], in bytes: [UInt8]) -> [[Int]] {
        bytes.withByteView { view in
            needs.map { need in
                var found: [Int] = []
                var from = 0
                while let hit = view.firstIndex(of: need.text, from: from) {
                    found.append(hit)
                    from = hit + 1
                }
                return found
            }
        }
    }

    /// Spaces for every byte of `range` but newlines, which keep lines and columns.
    private static func blank(_ range: Range<Int>, in text: inout [UInt8]) {
        for offset in range where text[offset] != UInt8(ascii: "\n") { text[offset] = UInt8(ascii: " ") }
    }

    /// Whether `range` holds the text of a need for any declaration.
    private static func holds(_ range: Range<Int>, _ needs: [DeclarationNeed], occurrences: [[Int]]) -> Bool {
        needs.indices.contains { index in
            needs[index].introducer == nil
                && occurrences[index].contains {
                    range.contains($0) && $0 + needs[index].text.count <= range.upperBound
                }
        }
    }

    private static func keeps(
        _ piece: DeclarationCut.Piece, needs: [DeclarationNeed], occurrences: [[Int]]
    ) -> Bool {
        switch piece.kind {
        case .directive: return true
        case .declaration(let introducer):
            if introducer == "import" { return true }
            return zip(needs, occurrences).contains { need, starts in
                (need.introducer == nil || need.introducer == introducer)
                    && starts.contains { piece.range.contains($0) && $0 + need.text.count <= piece.range.upperBound }
            }
        }
    }
}
