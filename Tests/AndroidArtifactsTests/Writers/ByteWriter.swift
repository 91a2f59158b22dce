/// Little-endian bytes appended in order, for the test writers of Android's formats (every
/// Android ABI is little-endian, and so are zip, binary XML and protobuf's fixed fields).
struct ByteWriter {
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) { append(UInt64(value), size: 2) }

    mutating func u32(_ value: UInt32) { append(UInt64(value), size: 4) }

    mutating func u64(_ value: UInt64) { append(value, size: 8) }

    /// An ELF address or offset: 8 bytes in a 64-bit file, 4 in a 32-bit one.
    mutating func word(_ value: UInt64, is64Bit: Bool) { append(value, size: is64Bit ? 8 : 4) }

    mutating func append(_ other: [UInt8]) { bytes += other }

    /// Zero bytes up to the next multiple of `alignment`.
    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites 4 bytes at `offset` (a size known only once what follows is written).
    mutating func patch32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private mutating func append(_ value: UInt64, size: Int) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
