/// Bytes being laid out, with the integer encodings Apple's formats use: little-endian Mach-O
/// structures, big-endian universal headers and code signatures, DER for CMS envelopes.
/// Independent of the readers' own decoding tables on purpose: a reader that misreads a field
/// must disagree with this writer, not share its mistake.
struct ByteBuffer {
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func little32(_ value: UInt32) { bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    mutating func little64(_ value: UInt64) { bytes += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    mutating func big32(_ value: UInt32) { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// An address-sized field: 8 bytes in 64-bit images, 4 in 32-bit ones.
    mutating func word(_ value: UInt64, size: Int) {
        if size == 8 { little64(value) } else { little32(UInt32(truncatingIfNeeded: value)) }
    }

    /// A 16-byte, NUL-padded segment or section name.
    mutating func fixedName(_ name: String) {
        let utf8 = Array(name.utf8.prefix(16))
        bytes += utf8 + [UInt8](repeating: 0, count: 16 - utf8.count)
    }

    mutating func zeros(_ count: Int) { bytes += [UInt8](repeating: 0, count: count) }

    /// Zeros up to the next multiple of `alignment`.
    mutating func align(_ alignment: Int) { zeros((alignment - bytes.count % alignment) % alignment) }

    static func rounded(_ value: Int, to alignment: Int) -> Int { (value + alignment - 1) / alignment * alignment }
}

/// DER encoding, as much of it as a CMS envelope needs.
enum DER {
    static func node(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { node(0x30, parts.flatMap { $0 }) }
    static func set(_ parts: [UInt8]...) -> [UInt8] { node(0x31, parts.flatMap { $0 }) }
    static func explicit0(_ content: [UInt8]) -> [UInt8] { node(0xA0, content) }
    static func octetString(_ content: [UInt8]) -> [UInt8] { node(0x04, content) }
    static func integer(_ value: UInt8) -> [UInt8] { node(0x02, [value]) }

    /// An OBJECT IDENTIFIER from its arcs (base-128 after the first two).
    static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8] {
        var content: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            content += chunk
        }
        return node(0x06, content)
    }

    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var octets: [UInt8] = []
        var rest = count
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }
}
