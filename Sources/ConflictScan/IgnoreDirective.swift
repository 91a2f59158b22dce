import ShipcheckCore

/// `shipcheck:ignore conflict-marker`, written on a marker line itself or on the line
/// directly above it, silences the finding for that block (opener) or remnant.
///
/// The directive is followed by rule ids separated by spaces or commas; `conflict-marker`
/// covers remnants too, `conflict-marker-remnant` only remnants. Anything else on the line
/// (`//`, `#`, `<!-- … -->`) is ignored, so it works in any comment syntax.
struct IgnoreDirective {
    static let keyword = Array("shipcheck:ignore".utf8)
    let buffer: UnsafeRawBufferPointer

    /// Whether a directive naming `ruleID` (or `conflict-marker`) is on the line starting at
    /// `lineStart` or on the line before it.
    func ignores(_ ruleID: String, at lineStart: Int) -> Bool {
        let lineEnd = ByteSearch.find(byte: MarkerSearch.newline, in: buffer, from: lineStart) ?? buffer.count
        var previousStart = lineStart
        if lineStart > 0 {
            previousStart = lineStart - 1
            while previousStart > 0, buffer[previousStart - 1] != MarkerSearch.newline { previousStart -= 1 }
        }
        var position = previousStart
        while let hit = Self.keyword.withUnsafeBytes({ ByteSearch.find($0, in: UnsafeRawBufferPointer(rebasing: buffer[..<lineEnd]), from: position) }) {
            if ruleIDs(after: hit + Self.keyword.count, end: lineEnd).contains(where: { $0 == ruleID || $0 == ConflictMarkerRule.id }) {
                return true
            }
            position = hit + 1
        }
        return false
    }

    /// The id-like tokens (`[A-Za-z0-9-]+`) after the keyword, up to the end of its line.
    private func ruleIDs(after start: Int, end: Int) -> [String] {
        let stop = ByteSearch.find(byte: MarkerSearch.newline, in: UnsafeRawBufferPointer(rebasing: buffer[..<end]), from: start) ?? end
        var tokens: [String] = []
        var index = start
        while index < stop {
            while index < stop, !isIDByte(buffer[index]) { index += 1 }
            let tokenStart = index
            while index < stop, isIDByte(buffer[index]) { index += 1 }
            if index > tokenStart { tokens.append(String(lossyUTF8: UnsafeRawBufferPointer(rebasing: buffer[tokenStart..<index]))) }
        }
        return tokens
    }

    private func isIDByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }
}
