import ScanEngine
import ShipcheckCore

/// Byte-level looks at identifiers in Swift source, for prefilters that decide whether a file
/// is worth parsing.
enum WholeWords {
    /// Whether `matches` holds for some occurrence of `word` that is a whole identifier (no
    /// identifier byte right before or after it); `matches` gets the occurrence's start.
    static func contains(_ word: [UInt8], in bytes: borrowing ByteView, where matches: (Int) -> Bool) -> Bool {
        var from = 0
        while let hit = bytes.firstIndex(of: word, from: from) {
            from = hit + 1
            let end = hit + word.count
            guard end == bytes.count || !ByteSearch.isIdentifierByte(bytes[end]),
                hit == 0 || !ByteSearch.isIdentifierByte(bytes[hit - 1])
            else { continue }
            if matches(hit) { return true }
        }
        return false
    }

    /// The index of the first byte at or after `index` that is not a space or tab.
    static func skippingBlanks(from index: Int, in bytes: borrowing ByteView) -> Int {
        var index = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }

    /// The index just past the spaces and tabs that end before `index`.
    static func skippingBlanks(before index: Int, in bytes: borrowing ByteView) -> Int {
        var index = index
        while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
        return index
    }
}
