import Foundation

/// A compact binary form for `Codable` values, for the result cache: every run decodes an
/// entry per file, and JSON (text, `Data` as base64) or property lists cost several times more
/// per entry than reading the file. Not self-describing beyond what decoding needs: a keyed
/// container is its count and, per entry, the key and the value; an unkeyed one its count and
/// values; each value is a presence byte and a length-prefixed body; integers are LEB128
/// (zig-zag when signed), strings and `Data` their UTF-8 / bytes. Unknown or malformed input
/// throws `DecodingError`, which the cache takes as "no entry". Coding paths are not tracked
/// (every node's is empty): no error's path is ever shown, and building one cost an array per
/// value decoded, on every warm run.
enum CompactCoder {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let node = EncodingNode(codingPath: [])
        try node.encodeValue(value)
        var out: [UInt8] = []
        out.reserveCapacity(node.byteCount)
        node.write(to: &out)
        return out
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: ArraySlice<UInt8>) throws -> Value {
        try DecodingNode(bytes: bytes, codingPath: []).decodeValue(type)
    }
}

// MARK: - Bytes

extension [UInt8] {
    mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    /// Eight bytes, least significant first (a hash: as a varint it would take ten).
    mutating func appendFixed(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func appendLengthPrefixed(_ bytes: some Collection<UInt8>) {
        appendVarint(UInt64(bytes.count))
        append(contentsOf: bytes)
    }
}

/// Reads what `[UInt8]`'s appends above wrote, from the front of a slice.
struct CompactByteReader {
    var bytes: ArraySlice<UInt8>
    let codingPath: [any CodingKey]

    func corrupt(_ what: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: what))
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.popFirst() {
            guard shift < 64 else { break }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw corrupt("truncated or overlong integer")
    }

    mutating func take(_ count: UInt64) throws -> ArraySlice<UInt8> {
        guard count <= UInt64(bytes.count) else { throw corrupt("truncated value") }
        let taken = bytes.prefix(Int(count))
        bytes = bytes.dropFirst(Int(count))
        return taken
    }

    mutating func lengthPrefixed() throws -> ArraySlice<UInt8> { try take(try varint()) }

    mutating func fixed() throws -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func string() throws -> String {
        guard let text = String(validating: try lengthPrefixed(), as: UTF8.self) else { throw corrupt("not UTF-8") }
        return text
    }

    /// A value slot: nil when it holds nil, else its body.
    mutating func slot() throws -> ArraySlice<UInt8>? {
        guard let presence = bytes.popFirst() else { throw corrupt("missing value") }
        switch presence {
        case 0: return nil
        case 1: return try lengthPrefixed()
        default: throw corrupt("bad presence byte")
        }
    }
}
