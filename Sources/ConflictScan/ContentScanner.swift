import ScanEngine
import ShipcheckCore

/// One marker line as a reader sees it.
package struct MarkerText: Sendable, Hashable, Codable {
    /// 1-based line number.
    package var line: Int
    /// The whole line without its terminator (lossy UTF-8).
    package var text: String
    /// What git wrote after the run: `HEAD`, `feature`, `Stashed changes`; empty when none.
    package var label: String
    /// Length of the line in UTF-8 bytes (for end columns).
    package var byteLength: Int
}

/// A complete conflict block found in a file.
package struct ConflictBlock: Sendable, Hashable {
    package var markerSize: Int
    package var opener: MarkerText
    /// The `|||||||` line of a diff3 / zdiff3 block.
    package var base: MarkerText?
    package var separator: MarkerText
    package var closer: MarkerText
    /// Blocks with longer markers inside this one (criss-cross merges).
    package var nestedBlockCount: Int
}

/// An opener, base or closer marker that belongs to no complete block.
package struct ConflictRemnant: Sendable, Hashable {
    package var kind: MarkerLine.Kind
    package var markerSize: Int
    package var marker: MarkerText
}

/// What one file's content holds.
package struct ContentConflicts: Sendable, Hashable {
    package var blocks: [ConflictBlock] = []
    package var remnants: [ConflictRemnant] = []
    /// The content was skipped as binary (a NUL in the first 8000 bytes, as git decides).
    package var isBinary = false
    /// Whether an opener, base or closer of the size searched for starts a line.
    package var hasMarkerLines = false
    /// The file's `shipcheck:ignore` directives (nil when it has none or no marker line), which
    /// the conflict rules' findings meet like every rule's (`Suppressions.outcome`).
    package var suppressions: Suppressions?
}

/// What one pass over a buffer keeps: every marker-like line at the search size with its text,
/// and the file's suppressions (when some marker could give a finding). Enough to recognise
/// the blocks at any marker size later (when git's attributes set another size for the path)
/// without the bytes.
package struct MarkerFacts: Sendable, Codable {
    var markers: [MarkerLine] = []
    /// Each marker's text, by its start offset.
    var texts: [Int: MarkerText] = [:]
    var suppressions: Suppressions?
    /// The content was skipped as binary (a NUL in the first 8000 bytes, as git decides).
    package var isBinary = false

    /// Whether an opener, base or closer has one of the sizes searched for (the marker
    /// lines are kept only then): only such a file can hold a finding.
    package var hasMarkerLines: Bool { !markers.isEmpty }
}

/// Scans one buffer: marker search, then (for the marker lines found) line numbers, labels and
/// suppressions; then block recognition at a marker size.
package enum ContentScanner {
    package static let defaultMarkerSize = 7

    /// `path` decides which comment syntaxes a suppression may use.
    package static func scan(_ bytes: [UInt8], markerSize: Int = defaultMarkerSize, path: String = "")
        -> ContentConflicts
    {
        bytes.withByteView { scan($0, markerSize: markerSize, path: path) }
    }

    package static func scan(_ buffer: borrowing ByteView, markerSize: Int = defaultMarkerSize, path: String = "")
        -> ContentConflicts
    {
        conflicts(in: facts(buffer, markerSizes: [markerSize], path: path), markerSize: markerSize)
    }

    /// The marker lines of at least the smallest of `markerSizes` (ascending: the sizes a path
    /// may have) and what a later recognition needs of them — none unless an opener, base or
    /// closer has one of those sizes: a block or remnant needs one of the path's size, and
    /// separators alone (Markdown and reST underlines) or runs of a size no path has (an
    /// 8-character `<<<<<<<<`) never give a finding, so such a file needs no texts,
    /// suppressions or attributes.
    package static func facts(_ buffer: borrowing ByteView, markerSizes: [Int], path: String) -> MarkerFacts {
        var facts = MarkerFacts()
        if buffer.looksBinary() {
            facts.isBinary = true
            return facts
        }
        guard let searchSize = markerSizes.first else { return facts }
        let markers = MarkerSearch.markerLines(in: buffer, minimumSize: searchSize)
        guard markers.contains(where: { $0.kind != .separator && markerSizes.contains($0.size) }) else { return facts }
        facts.markers = markers
        var lines = LineCursor()
        for marker in markers {
            facts.texts[marker.start] = MarkerText(
                line: lines.line(of: marker.start, in: buffer),
                text: buffer.string(marker.start..<marker.contentEnd), label: buffer.string(marker.label),
                byteLength: marker.contentEnd - marker.start)
        }
        let suppressions = Suppressions(buffer, path: path)
        if !suppressions.isEmpty { facts.suppressions = suppressions }
        return facts
    }

    /// The blocks and remnants of `markerSize` among the facts' marker lines.
    package static func conflicts(in facts: MarkerFacts, markerSize: Int) -> ContentConflicts {
        var result = ContentConflicts(
            isBinary: facts.isBinary, hasMarkerLines: facts.hasMarkerLines, suppressions: facts.suppressions)
        let markers = facts.markers.filter { $0.size >= markerSize }
        guard !markers.isEmpty else { return result }
        let outcome = BlockRecognizer(markerSize: markerSize).recognize(markers)
        result.blocks = outcome.blocks.map { block in
            ConflictBlock(
                markerSize: block.markerSize, opener: facts.texts[block.opener.start]!,
                base: block.base.map { facts.texts[$0.start]! }, separator: facts.texts[block.separator.start]!,
                closer: facts.texts[block.closer.start]!, nestedBlockCount: block.nestedBlockCount)
        }
        result.remnants = outcome.remnants.map { marker in
            ConflictRemnant(
                kind: marker.kind, markerSize: marker.size, marker: facts.texts[marker.start]!)
        }
        return result
    }
}
