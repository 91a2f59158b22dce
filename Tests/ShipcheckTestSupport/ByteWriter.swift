/// Bytes appended in order, for the tests' file writers: little-endian (ELF as every Android ABI
/// and x86_64 Linux lay it out, Mach-O, zip, binary XML and protobuf's fixed fields) unless a
/// method says big-endian (universal headers, code signatures).
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package var count: Int { bytes.count }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func u16(_ value: UInt16) { append(UInt64(value), size: 2) }

    package mutating func u32(_ value: UInt32) { append(UInt64(value), size: 4) }

    package mutating func u64(_ value: UInt64) { append(value, size: 8) }

    /// An ELF address or offset: 8 bytes in a 64-bit file, 4 in a 32-bit one.
    package mutating func word(_ value: UInt64, is64Bit: Bool) { append(value, size: is64Bit ? 8 : 4) }

    package mutating func append(_ other: [UInt8]) { bytes += other }

    /// Big-endian, as universal headers and code-signature blobs store their fields.
    package mutating func big32(_ value: UInt32) {
        bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// A 16-byte, NUL-padded Mach-O segment or section name.
    package mutating func fixedName(_ name: String) {
        let utf8 = Array(name.utf8.prefix(16))
        bytes += utf8 + [UInt8](repeating: 0, count: 16 - utf8.count)
    }

    package mutating func zeros(_ count: Int) { bytes += [UInt8](repeating: 0, count: count) }

    /// `value` rounded up to a multiple of `alignment`.
    package static func rounded(_ value: Int, to alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }

    /// Zero bytes up to the next multiple of `alignment`.
    package mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites 4 bytes at `offset` (a size known only once what follows is written).
    package mutating func patch32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private mutating func append(_ value: UInt64, size: Int) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
