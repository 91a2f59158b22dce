import ScanEngine
import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// A Swift file parsed once: its bytes, syntax tree and lines, and what more than one check
/// reads off the tree (its previews, its suppressions). Every check that reads Swift syntax —
/// the source rules, the archive-breaker check, the manifest audit — takes it from the file's
/// `FileContents` (`ParsedSwiftFile.of(_:)`), so a file is parsed at most once per scan and its
/// tree lives only for that file's turn.
package final class ParsedSwiftFile {
    /// Relative to the scanned root.
    package let path: String
    package let bytes: [UInt8]
    package let tree: SourceFileSyntax
    package let lines: LineTable
    /// Whether `tree` holds only some declarations (`PartialParse`), blanks in place of the rest.
    let isPartial: Bool
    /// The types declared where `tree` has blanks.
    private let factsOutsideTree: SwiftTypeFacts

    /// Parses `bytes`, or throws the input error `SwiftText.problem(in:path:)` gives.
    package convenience init(bytes: [UInt8], path: String) throws(InputError) {
        if let problem = SwiftText.problem(in: bytes, path: path) { throw problem }
        self.init(checked: bytes, path: path, tree: nil, factsOutsideTree: SwiftTypeFacts())
    }

    /// `bytes` that `SwiftText` accepts; `tree`: their parse with some declarations blanked
    /// (nil: parse them whole), and the types those declare.
    init(checked bytes: [UInt8], path: String, tree: SourceFileSyntax?, factsOutsideTree: SwiftTypeFacts) {
        self.path = path
        self.bytes = bytes
        self.tree = tree ?? Parser.parse(source: String(decoding: bytes, as: UTF8.self))
        isPartial = tree != nil
        self.factsOutsideTree = factsOutsideTree
        lines = LineTable(bytes)
    }

    /// What the file declares about types, for questions across files.
    var typeFacts: SwiftTypeFacts {
        var facts = SwiftTypeFacts(tree: tree)
        facts.formUnion(factsOutsideTree)
        return facts
    }

    /// The file of a scan's turn: parsed by the first check that asks, shared with the others.
    /// Nil when it is not Swift the parser can take (reported as an input error, once).
    package static func of(_ contents: FileContents) -> ParsedSwiftFile? {
        contents.derived(ParsedSwiftFile?.self) { contents in
            do throws(InputError) {
                return try ParsedSwiftFile(bytes: contents.withBytes { $0.array() }, path: contents.file.relativePath)
            } catch {
                contents.report(error)
                return nil
            }
        }
    }

    /// The input error for a tree the parser had to recover (a missing token, unexpected text),
    /// naming the first problem; nil when the file parses cleanly.
    package private(set) lazy var syntaxProblem: InputError? = {
        guard tree.hasError, let problem = SyntaxErrorLocator.first(in: tree) else { return nil }
        return InputError(
            path: path, line: lines.position(of: problem.offset).line,
            message: "does not parse as Swift (\(problem.description)); not scanned")
    }()

    /// Every `#Preview` and preview-provider declaration.
    private(set) lazy var previews: [DetectedPreview] = PreviewFinder.find(in: tree)

    /// Byte ranges of the previews (what other checks leave to the preview rules).
    package var previewRanges: [Range<Int>] {
        previews.map { $0.node.position.utf8Offset..<$0.node.endPosition.utf8Offset }
    }

    /// The file's `shipcheck:ignore` directives.
    package private(set) lazy var suppressions = Suppressions(bytes, path: path)

    /// The tree's `#if` clauses as the release-condition evaluator described them.
    package let clauseMemo = ClauseMemo()
}

/// Whether bytes are Swift text the parser can be given: UTF-8, and `#if` and `[` nesting no
/// deeper than it copes with (see `DirectiveNesting`). Every check reading Swift asks here, so a
/// file that is not is one input error, whichever checks wanted it.
package enum SwiftText {
    /// The input error for bytes that cannot be parsed, or nil.
    package static func problem(in bytes: some Collection<UInt8>, path: String) -> InputError? {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            return InputError(path: path, line: firstInvalidUTF8Line(bytes), message: "not valid UTF-8; not scanned")
        }
        let array = Array(bytes)
        if let line = DirectiveNesting.lineExceedingMaximum(in: array) {
            return InputError(
                path: path, line: line,
                message: "#if nesting deeper than \(DirectiveNesting.maximum) levels; not scanned")
        }
        if let line = DirectiveNesting.lineExceedingMaximumBrackets(in: array) {
            return InputError(
                path: path, line: line,
                message: "[ nesting deeper than \(DirectiveNesting.maximumBrackets) levels; not scanned")
        }
        return nil
    }

    /// Whether the file's bytes are Swift the parser can take; the problem is reported once
    /// per file, whichever checks ask.
    package static func isParseable(_ contents: FileContents) -> Bool {
        problem(of: contents) == nil
    }

    /// Why the file's bytes cannot be parsed, or nil: worked out and reported once per file.
    package static func problem(of contents: FileContents) -> InputError? {
        contents.derived(Validity.self) { contents in
            let found = contents.withBytes { problem(in: $0.array(), path: contents.file.relativePath) }
            if let found { contents.report(found) }
            return Validity(problem: found)
        }.problem
    }

    private struct Validity { var problem: InputError? }

    /// The line of the first byte sequence that is not UTF-8.
    static func firstInvalidUTF8Line(_ bytes: some Collection<UInt8>) -> Int {
        var line = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" { line += 1 }
        }
        return line
    }
}
