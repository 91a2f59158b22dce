import Foundation
import ShipcheckTestSupport
import ZIPFoundation

/// A zip written entry by entry (APPNOTE.TXT 4.3.7 and 4.3.12), so a stored entry's data can
/// start at exactly the offset an example names: the gap is padded in the local header's extra
/// field, as zipalign pads it (tag 0xD935). Deflated entries are compressed with ZIPFoundation's
/// raw deflate.
struct ZipWriter {
    private var archive = ByteWriter()
    private var directory = ByteWriter()
    private var entries = 0

    struct OffsetError: Error, CustomStringConvertible {
        var description: String
    }

    /// A stored entry, its data at `dataOffset` when given.
    mutating func store(_ name: String, _ data: [UInt8], dataOffset: UInt64? = nil) throws {
        let start = archive.count + 30 + name.utf8.count
        var padding = 0
        if let dataOffset {
            padding = Int(dataOffset) - start
            guard padding == 0 || (4...0xFFFF).contains(padding) else {
                throw OffsetError(
                    description: "\(name) cannot start at \(dataOffset): the entries before it end at \(start)")
            }
        }
        let extra = padding == 0 ? [] : [0x35, 0xD9] + le16(padding - 4) + [UInt8](repeating: 0, count: padding - 4)
        add(name, method: 0, data: data, stored: data, extra: extra)
    }

    mutating func deflate(_ name: String, _ data: [UInt8]) throws {
        var compressed: [UInt8] = []
        let input = Data(data)
        _ = try Data.compress(size: Int64(data.count), bufferSize: 1 << 16) { position, size in
            input.subdata(in: Int(position)..<(Int(position) + size))
        } consumer: {
            compressed += $0
        }
        add(name, method: 8, data: data, stored: compressed, extra: [])
    }

    /// The archive with its central directory and end record.
    var bytes: [UInt8] {
        var out = archive
        let directoryOffset = out.count
        out.append(directory.bytes)
        out.u32(0x0605_4B50)
        out.u16(0)
        out.u16(0)
        out.u16(UInt16(entries))
        out.u16(UInt16(entries))
        out.u32(UInt32(directory.count))
        out.u32(UInt32(directoryOffset))
        out.u16(0)
        return out.bytes
    }

    private mutating func add(_ name: String, method: UInt16, data: [UInt8], stored: [UInt8], extra: [UInt8]) {
        let checksum = Data(data).crc32(checksum: 0)
        let offset = archive.count
        let nameBytes = Array(name.utf8)
        // Local header: version 2.0, no flags, method, a fixed DOS time (2026-11-27 12:00).
        archive.u32(0x0403_4B50)
        fields(&archive, method: method, checksum: checksum, sizes: (stored.count, data.count))
        archive.u16(UInt16(nameBytes.count))
        archive.u16(UInt16(extra.count))
        archive.append(nameBytes + extra + stored)

        directory.u32(0x0201_4B50)
        directory.u16(0x0314)
        fields(&directory, method: method, checksum: checksum, sizes: (stored.count, data.count))
        directory.u16(UInt16(nameBytes.count))
        directory.append([0, 0, 0, 0, 0, 0, 0, 0])  // extra and comment lengths, disk, internal attributes
        directory.u32(0o100644 << 16)
        directory.u32(UInt32(offset))
        directory.append(nameBytes)
        entries += 1
    }

    private func fields(_ out: inout ByteWriter, method: UInt16, checksum: UInt32, sizes: (Int, Int)) {
        out.u16(20)
        out.u16(0)
        out.u16(method)
        out.u16(0x6000)
        out.u16(0x5B7B)
        out.u32(checksum)
        out.u32(UInt32(sizes.0))
        out.u32(UInt32(sizes.1))
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
