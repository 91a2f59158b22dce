import ScanEngine
import ShipcheckCore

/// One line that begins like a conflict marker: a run of `<`, `|`, `=` or `>` at the start
/// of a line, followed by whitespace or the end of the buffer (git's own test, `diff.c`).
package struct MarkerLine: Sendable, Hashable, Codable {
    package enum Kind: UInt8, Sendable, Codable {
        case opener = 0x3C  // <
        case base = 0x7C  // |
        case separator = 0x3D  // =
        case closer = 0x3E  // >
    }

    package var kind: Kind
    /// Offset of the first marker byte, which is also the start of the line.
    package var start: Int
    /// How many marker bytes the run has: the marker size it was written with.
    package var size: Int
    /// Offset of the line's terminator (`\r\n` or `\n`), or the buffer's end.
    package var contentEnd: Int
    /// The label git wrote after the run (`HEAD`, `feature`, `parent of 38fbfb3 (feat)`), as bytes.
    package var label: Range<Int>
}

/// Finds marker lines in a whole buffer without looking at every line.
///
/// A marker is a run of at least `minimumSize` equal bytes, so it must cover one of the
/// positions `minimumSize - 1`, `2 * minimumSize - 1`, …: the search probes only those and
/// widens the run around a probe that hits one of the four marker bytes (a Horspool-style
/// skip for a byte class). One pass covers all four marker kinds, where `memmem` would take
/// four (see docs/performance.md, "Conflict markers by probing every nth byte"). Only then
/// are the line start and the byte after the run checked.
package enum MarkerSearch {
    /// Marker lines whose run is at least `minimumSize` long, in buffer order. Runs longer
    /// than `minimumSize` are kept (criss-cross merges nest longer markers); whether a run of
    /// a given size counts is the block recognizer's decision.
    package static func markerLines(in bytes: borrowing ByteView, minimumSize: Int) -> [MarkerLine] {
        guard minimumSize > 0, bytes.count >= minimumSize else { return [] }
        let count = bytes.count
        var found: [MarkerLine] = []
        var probe = minimumSize - 1
        while probe < count {
            let byte = bytes[probe]
            guard isMarkerByte(byte) else {
                probe += minimumSize
                continue
            }
            var start = probe
            while start > 0, bytes[start - 1] == byte { start -= 1 }
            var end = probe + 1
            while end < count, bytes[end] == byte { end += 1 }
            if end - start >= minimumSize, start == 0 || bytes[start - 1] == newline,
                end == count || isGitSpace(bytes[end]),
                let kind = MarkerLine.Kind(rawValue: byte)
            {
                found.append(markerLine(kind: kind, start: start, runEnd: end, in: bytes))
            }
            probe = end + minimumSize - 1
        }
        return found
    }

    private static func markerLine(kind: MarkerLine.Kind, start: Int, runEnd: Int, in buffer: borrowing ByteView)
        -> MarkerLine
    {
        let lineEnd = buffer.firstIndex(of: newline, from: runEnd) ?? buffer.count
        var contentEnd = lineEnd
        if contentEnd > runEnd, buffer[contentEnd - 1] == carriageReturn { contentEnd -= 1 }
        // git writes one space between the run and the label.
        var labelStart = min(runEnd + 1, contentEnd)
        while labelStart < contentEnd, isGitSpace(buffer[labelStart]) { labelStart += 1 }
        var labelEnd = contentEnd
        while labelEnd > labelStart, isGitSpace(buffer[labelEnd - 1]) { labelEnd -= 1 }
        return MarkerLine(
            kind: kind, start: start, size: runEnd - start, contentEnd: contentEnd, label: labelStart..<labelEnd)
    }

    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    @inline(__always)
    static func isMarkerByte(_ byte: UInt8) -> Bool {
        byte &- 0x3C < 3 || byte == 0x7C
    }

    /// git's `isspace` (sane_ctype): space, tab, LF and CR — not VT or FF.
    @inline(__always)
    static func isGitSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
