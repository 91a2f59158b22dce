import CByteSearch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level searching on whole buffers (memchr / memmem), the hot loop of every text
/// scanner here. Nothing in it builds a String.
package enum ByteSearch {
    /// Offset of the first `needle` at or after `start`, or nil.
    @inlinable
    package static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0)
        -> Int?
    {
        guard needle.count > 0, start >= 0, start <= haystack.count, let base = haystack.baseAddress else { return nil }
        guard let hit = shipcheck_memmem(base + start, haystack.count - start, needle.baseAddress!, needle.count) else {
            return nil
        }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Offset of the first `byte` at or after `start`, or nil.
    @inlinable
    package static func find(byte: UInt8, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard start >= 0, start < haystack.count, let base = haystack.baseAddress else { return nil }
        guard let hit = memchr(base + start, Int32(byte), haystack.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Whether `bytes` are well-formed UTF-8.
    package static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return shipcheck_utf8_valid(base, bytes.count) != 0
    }

    /// Whether `needle` occurs anywhere in `haystack`.
    package static func contains(_ needle: String, in haystack: [UInt8]) -> Bool {
        var needleBytes = Array(needle.utf8)
        return haystack.withUnsafeBytes { hay in
            needleBytes.withUnsafeMutableBytes { find(UnsafeRawBufferPointer($0), in: hay) != nil }
        }
    }

    /// ASCII letters, digits, `_`, and every byte of a non-ASCII scalar (Swift identifiers may
    /// use those); backticks and `$` end a run, as they are not part of a name.
    @inlinable
    package static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), 0x80...:
            true
        default: false
        }
    }

    /// Whether the first `window` bytes contain a NUL — git's test for a binary file.
    package static func looksBinary(_ bytes: UnsafeRawBufferPointer, window: Int = 8000) -> Bool {
        find(byte: 0, in: UnsafeRawBufferPointer(rebasing: bytes.prefix(window))) != nil
    }
}

/// Maps byte offsets to 1-based lines and columns. Built once per file by counting
/// newlines with memchr, then each lookup is a binary search.
package struct LineTable: Sendable {
    /// Offset of the first byte of each line; `lineStarts[0] == 0`.
    package let lineStarts: [Int]
    package let byteCount: Int

    package init(_ bytes: UnsafeRawBufferPointer) {
        var starts = [0]
        var position = 0
        while let newline = ByteSearch.find(byte: UInt8(ascii: "\n"), in: bytes, from: position) {
            starts.append(newline + 1)
            position = newline + 1
        }
        lineStarts = starts
        byteCount = bytes.count
    }

    package init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { LineTable($0) }
    }

    package init(_ bytes: borrowing ByteView) { self.init(bytes.base) }

    /// 1-based line and UTF-8 column of `offset`.
    package func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }

    /// Byte range of 1-based `line`, without its line terminator (`\n` or `\r\n`).
    package func range(ofLine line: Int, in bytes: borrowing ByteView) -> Range<Int> {
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : byteCount
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }
}

extension String {
    /// Decodes bytes as UTF-8, replacing invalid sequences, for messages and snippets.
    package init(lossyUTF8 bytes: some Collection<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    package var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
}
