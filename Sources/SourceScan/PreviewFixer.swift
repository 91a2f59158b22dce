import ScanEngine
import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// Wraps unwrapped previews in `#if DEBUG … #endif`, touching nothing else.
///
/// Each preview is taken whole: its statement or member, with its attributes and its doc
/// comment, from the start of its first line to the end of its last. Previews separated only
/// by blank lines share one `#if DEBUG`. A preview that shares a line with other code is left
/// alone (reported, not fixed). The result must parse without errors and have the same tokens
/// as the original outside the inserted lines, or the file is not rewritten.
struct PreviewFixer {
    struct Outcome {
        var fixed: [UInt8]
        var wrapped: Int
        /// Previews left alone, with why.
        var skipped: [(line: Int, reason: String)]
    }

    /// A byte range of whole lines to put inside one `#if DEBUG`.
    private struct Region {
        var start: Int  // first byte of the first line
        var end: Int  // just after the last line's terminator (or end of file)
        var indent: [UInt8]
        var parent: SyntaxIdentifier?
        var count = 1
    }

    static func fix(_ file: ParsedSwiftFile, previews: [DetectedPreview]) -> Outcome {
        let bytes = file.bytes
        var regions: [Region] = []
        var skipped: [(Int, String)] = []
        for preview in previews {
            let line = file.line(of: preview.anchor)
            switch region(for: preview, bytes: bytes) {
            case .success(let region): regions.append(region)
            case .failure(let reason): skipped.append((line, reason.text))
            }
        }
        regions.sort { $0.start < $1.start }
        var merged: [Region] = []
        for region in regions {
            if var last = merged.last, last.parent == region.parent, last.end <= region.start,
                bytes[last.end..<region.start].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
            {
                last.end = region.end
                last.count += region.count
                merged[merged.count - 1] = last
            } else if let last = merged.last, region.start < last.end {
                skipped.append((0, "overlaps another preview"))
            } else {
                merged.append(region)
            }
        }
        let newline: [UInt8] = ByteSearch.contains("\r\n", in: bytes) ? [0x0D, 0x0A] : [0x0A]
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + merged.count * 24)
        var position = 0
        for region in merged {
            output += bytes[position..<region.start]
            output += region.indent + Array("#if DEBUG".utf8) + newline
            output += bytes[region.start..<region.end]
            if region.end == bytes.count, bytes.last != 0x0A { output += newline }
            output += region.indent + Array("#endif".utf8) + newline
            position = region.end
        }
        output += bytes[position...]
        return Outcome(fixed: output, wrapped: merged.reduce(0) { $0 + $1.count }, skipped: skipped)
    }

    private struct Unfixable: Error { var text: String }

    private static func region(for preview: DetectedPreview, bytes: [UInt8]) -> Result<Region, Unfixable> {
        guard let unit = preview.node.parent, unit.is(CodeBlockItemSyntax.self) || unit.is(MemberBlockItemSyntax.self),
            let first = unit.firstToken(viewMode: .sourceAccurate)
        else {
            return .failure(Unfixable(text: "not a statement or member of its own"))
        }
        var start = first.attachedCommentStart(docCommentsOnly: true)
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        guard bytes[lineStart..<start].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
            return .failure(Unfixable(text: "other code precedes it on its line"))
        }
        let indent = Array(bytes[lineStart..<start])
        start = lineStart
        var end = unit.endPositionBeforeTrailingTrivia.utf8Offset
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x3B { end += 1 }
        if end + 1 < bytes.count, bytes[end] == 0x2F, bytes[end + 1] == 0x2F {
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        }
        if end < bytes.count, bytes[end] == 0x0D { end += 1 }
        guard end == bytes.count || bytes[end] == 0x0A else {
            return .failure(Unfixable(text: "other code follows it on its line"))
        }
        if end < bytes.count { end += 1 }
        return .success(Region(start: start, end: end, indent: indent, parent: unit.parent?.id))
    }

    /// Whether `fixed` is `original` plus only the inserted directive lines: it parses cleanly
    /// and its tokens, minus `#if DEBUG` / `#endif`, are the original's.
    static func verify(original: SourceFileSyntax, fixed: [UInt8]) -> Bool {
        guard let text = String(validating: fixed, as: UTF8.self) else { return false }
        let tree = Parser.parse(source: text)
        guard !tree.hasError else { return false }
        var expected = original.tokens(viewMode: .sourceAccurate).map { "\($0.tokenKind)" }[...]
        var tokens = Array(tree.tokens(viewMode: .sourceAccurate))
        // Remove the inserted directives: each `#if DEBUG` we wrote and each `#endif` closing one,
        // matched by position against what the original had at that point.
        var index = 0
        while index < tokens.count {
            let kind = "\(tokens[index].tokenKind)"
            if let next = expected.first, next == kind {
                expected = expected.dropFirst()
                index += 1
                continue
            }
            if tokens[index].tokenKind == .poundIf, index + 1 < tokens.count, tokens[index + 1].text == "DEBUG" {
                tokens.removeSubrange(index...(index + 1))
                continue
            }
            if tokens[index].tokenKind == .poundEndif {
                tokens.remove(at: index)
                continue
            }
            return false
        }
        return expected.isEmpty
    }
}
