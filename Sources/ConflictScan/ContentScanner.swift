import ShipcheckCore

/// One marker line as a reader sees it.
public struct MarkerText: Sendable, Hashable {
    /// 1-based line number.
    public var line: Int
    /// The whole line without its terminator (lossy UTF-8).
    public var text: String
    /// What git wrote after the run: `HEAD`, `feature`, `Stashed changes`; empty when none.
    public var label: String
    /// Length of the line in UTF-8 bytes (for end columns).
    public var byteLength: Int
}

/// A complete conflict block found in a file.
public struct ConflictBlock: Sendable, Hashable {
    public var markerSize: Int
    public var opener: MarkerText
    /// The `|||||||` line of a diff3 / zdiff3 block.
    public var base: MarkerText?
    public var separator: MarkerText
    public var closer: MarkerText
    /// Blocks with longer markers inside this one (criss-cross merges).
    public var nestedBlockCount: Int
    /// A `shipcheck:ignore conflict-marker` directive sits on the opener line or the line above.
    public var isIgnored: Bool
}

/// An opener, base or closer marker that belongs to no complete block.
public struct ConflictRemnant: Sendable, Hashable {
    public var kind: MarkerLine.Kind
    public var markerSize: Int
    public var marker: MarkerText
    /// A directive for `conflict-marker` or `conflict-marker-remnant` on the line or the line above.
    public var isIgnored: Bool
}

/// What one file's content holds.
public struct ContentConflicts: Sendable, Hashable {
    public var blocks: [ConflictBlock] = []
    public var remnants: [ConflictRemnant] = []
    /// The content was skipped as binary (a NUL in the first 8000 bytes, as git decides).
    public var isBinary = false
    /// Whether any line starts with a marker-like run at least the search size long: only
    /// then can another marker size (from attributes) change the outcome.
    public var hasMarkerLines = false
}

/// Scans one buffer: marker search, block recognition, then line numbers and labels for
/// what was found (and only for that).
public enum ContentScanner {
    public static let defaultMarkerSize = 7

    /// `searchSize` (at most `markerSize`) sets how short a run counts for `hasMarkerLines`.
    public static func scan(_ bytes: [UInt8], markerSize: Int = defaultMarkerSize, searchSize: Int? = nil) -> ContentConflicts {
        bytes.withUnsafeBytes { scan($0, markerSize: markerSize, searchSize: searchSize) }
    }

    public static func scan(_ buffer: UnsafeRawBufferPointer, markerSize: Int = defaultMarkerSize, searchSize: Int? = nil) -> ContentConflicts {
        var result = ContentConflicts()
        if ByteSearch.looksBinary(buffer) {
            result.isBinary = true
            return result
        }
        var markers = MarkerSearch.markerLines(in: buffer, minimumSize: min(searchSize ?? markerSize, markerSize))
        result.hasMarkerLines = !markers.isEmpty
        markers.removeAll { $0.size < markerSize }
        guard !markers.isEmpty else { return result }
        let outcome = BlockRecognizer(markerSize: markerSize).recognize(markers)
        guard !outcome.blocks.isEmpty || !outcome.remnants.isEmpty else { return result }

        var lines = LineCursor(buffer)
        // Blocks and remnants interleave; visit their markers in buffer order so the cursor ascends.
        var located: [Int: MarkerText] = [:]
        let wanted = (outcome.blocks.flatMap { [$0.opener, $0.base, $0.separator, $0.closer].compactMap { $0 } } + outcome.remnants)
            .sorted { $0.start < $1.start }
        for marker in wanted where located[marker.start] == nil {
            located[marker.start] = MarkerText(
                line: lines.line(of: marker.start),
                text: String(lossyUTF8: UnsafeRawBufferPointer(rebasing: buffer[marker.start..<marker.contentEnd])),
                label: String(lossyUTF8: UnsafeRawBufferPointer(rebasing: buffer[marker.label])),
                byteLength: marker.contentEnd - marker.start)
        }
        let directives = IgnoreDirective(buffer: buffer)
        result.blocks = outcome.blocks.map { block in
            ConflictBlock(markerSize: block.markerSize, opener: located[block.opener.start]!,
                          base: block.base.map { located[$0.start]! }, separator: located[block.separator.start]!,
                          closer: located[block.closer.start]!, nestedBlockCount: block.nestedBlockCount,
                          isIgnored: directives.ignores(ConflictMarkerRule.id, at: block.opener.start))
        }
        result.remnants = outcome.remnants.map { marker in
            ConflictRemnant(kind: marker.kind, markerSize: marker.size, marker: located[marker.start]!,
                            isIgnored: directives.ignores(ConflictMarkerRemnantRule.id, at: marker.start))
        }
        return result
    }
}
