/// Little-endian bytes appended in order, for the tests' file writers (ELF as every Android ABI
/// and x86_64 Linux lay it out, zip, binary XML and protobuf's fixed fields).
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
