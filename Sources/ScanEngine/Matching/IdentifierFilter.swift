import CByteSearch
import Foundation

/// Which names a file may mention: a Bloom filter over every identifier-shaped run of its bytes
/// (what `ByteSearch.isIdentifierByte` accepts), kept for the whole scan instead of the bytes.
/// Cross-file questions (does release code name this DEBUG-only declaration, does some file
/// declare this class) open again only the files whose filter may hold the name: "no" is
/// certain, "maybe" costs a read. The filter grows with the file, about one bit per two bytes,
/// so a large file answers "maybe" no more often than a small one.
package struct IdentifierFilter: Sendable, Hashable {
    private var words: [UInt64]

    /// The filter of `bytes`.
    package init(_ bytes: borrowing ByteView) {
        var words = [UInt64](repeating: 0, count: Self.wordCount(forByteCount: bytes.count))
        words.withUnsafeMutableBufferPointer { filter in
            shipcheck_identifier_filter_add(bytes.base.baseAddress, bytes.count, filter.baseAddress, filter.count)
        }
        self.words = words
    }

    /// The filter of a file's bytes, computed once for every check that asks.
    package static func of(_ contents: FileContents) -> IdentifierFilter {
        contents.derived(IdentifierFilter.self) { contents in contents.withBytes { IdentifierFilter($0) } }
    }

    /// False when no identifier of the filtered bytes is `name`; true when one may be.
    package func mayContain(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { utf8 in
            words.withUnsafeBufferPointer { filter in
                shipcheck_identifier_filter_contains(utf8.baseAddress, utf8.count, filter.baseAddress, filter.count)
                    != 0
            }
        }
    }

    /// Whether the filter may hold any of `names`.
    package func mayContainAny(of names: some Sequence<String>) -> Bool {
        names.contains { mayContain($0) }
    }

    /// The bytes the filter keeps.
    package var byteCount: Int { words.count * 8 }

    /// A power of two (the C side masks bit positions), at least 512 bits, about one bit per
    /// two bytes of text, at most 128 KiB.
    static func wordCount(forByteCount count: Int) -> Int {
        let wanted = min(max(count / 2, 512), 1 << 20)
        return (1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)) / 64
    }
}

/// Kept in the result cache as its raw words, little-endian.
extension IdentifierFilter: Codable {
    package init(from decoder: any Decoder) throws {
        let data = try decoder.singleValueContainer().decode(Data.self)
        let count = data.count / 8
        guard count > 0, data.count % 8 == 0, count & (count - 1) == 0 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not an identifier filter"))
        }
        var words = [UInt64](repeating: 0, count: count)
        words.withUnsafeMutableBytes { $0.copyBytes(from: data) }
        self.words = words.map { UInt64(littleEndian: $0) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(words.map { $0.littleEndian }.withUnsafeBytes { Data($0) })
    }
}
