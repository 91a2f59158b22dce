import Foundation

/// Where the data of a zip's uncompressed entries begins: the check `zipalign -c -P 16` makes.
/// ZIPFoundation reads entries but keeps their local headers to itself, so the central
/// directory is read here for the few fields that say it (APPNOTE.TXT 4.3.7 and 4.3.12: the
/// local header's offset, with its ZIP64 extra field; the local header's name and extra
/// lengths). Anything that does not hold together leaves the entry out: ZIPFoundation, which
/// reads the same archive for the contents, reports the damage.
enum ZipDataOffsets {
    /// Stored (method 0) entries whose name `wanted` accepts → the offset of their first byte.
    static func storedEntries(in reader: RandomAccessBytes, where wanted: (String) -> Bool) -> [String: UInt64] {
        guard let directory = centralDirectory(in: reader) else { return [:] }
        guard let table = reader.read(at: directory.offset, count: Int(directory.size)) else { return [:] }
        var offsets: [String: UInt64] = [:]
        var at = 0
        for _ in 0..<directory.count {
            guard at + 46 <= table.count, table.uint32(at) == 0x0201_4B50 else { break }
            let method = table.uint16(at + 10)
            let compressed = UInt64(table.uint32(at + 20))
            let uncompressed = UInt64(table.uint32(at + 24))
            let nameLength = Int(table.uint16(at + 28)), extraLength = Int(table.uint16(at + 30))
            let commentLength = Int(table.uint16(at + 32))
            var localHeader = UInt64(table.uint32(at + 42))
            let next = at + 46 + nameLength + extraLength + commentLength
            guard next <= table.count else { break }
            let name = String(decoding: table[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            defer { at = next }
            guard method == 0, wanted(name) else { continue }
            if localHeader == 0xFFFF_FFFF {
                // ZIP64: the extended field lists, in order, the sizes that overflowed, then the offset.
                let extra = Array(table[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)])
                guard let offset = zip64Offset(extra, skipping: [uncompressed, compressed]) else { continue }
                localHeader = offset
            }
            guard let local = reader.read(at: localHeader, count: 30), local.uint32(0) == 0x0403_4B50 else { continue }
            offsets[name] = localHeader + 30 + UInt64(local.uint16(26)) + UInt64(local.uint16(28))
        }
        return offsets
    }

    /// The central directory's offset, size and entry count, from the end-of-central-directory
    /// record (and its ZIP64 form when the record says so).
    private static func centralDirectory(in reader: RandomAccessBytes) -> (offset: UInt64, size: UInt64, count: Int)? {
        let size = reader.count
        guard size >= 22 else { return nil }
        let tailStart = size > 65_557 ? size - 65_557 : 0
        guard let tail = reader.read(at: tailStart, count: Int(size - tailStart)) else { return nil }
        guard
            let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.uint32($0) == 0x0605_4B50 })
        else { return nil }
        var result = (
            offset: UInt64(tail.uint32(end + 16)), size: UInt64(tail.uint32(end + 12)),
            count: Int(tail.uint16(end + 10))
        )
        if result.offset == 0xFFFF_FFFF || result.count == 0xFFFF, end >= 20, tail.uint32(end - 20) == 0x0706_4B50 {
            let locatorOffset = tail.uint64(end - 12)
            guard let record = reader.read(at: locatorOffset, count: 56), record.uint32(0) == 0x0606_4B50 else {
                return nil
            }
            result = (record.uint64(48), record.uint64(40), Int(clamping: record.uint64(32)))
        }
        guard result.offset <= size, result.size <= size - result.offset else { return nil }
        return result
    }

    private static func zip64Offset(_ extra: [UInt8], skipping sizes: [UInt64]) -> UInt64? {
        var at = 0
        while at + 4 <= extra.count {
            let tag = extra.uint16(at), length = Int(extra.uint16(at + 2))
            if tag == 0x0001 {
                let skipped = sizes.filter { $0 == 0xFFFF_FFFF }.count * 8
                guard skipped + 8 <= length, at + 4 + skipped + 8 <= extra.count else { return nil }
                return extra.uint64(at + 4 + skipped)
            }
            at += 4 + length
        }
        return nil
    }
}

/// Bytes read at an offset: a file, or an archive already in memory (an APK inside an APK set).
struct RandomAccessBytes {
    let count: UInt64
    let read: (_ offset: UInt64, _ count: Int) -> [UInt8]?

    func read(at offset: UInt64, count wanted: Int) -> [UInt8]? {
        guard offset <= count, UInt64(wanted) <= count - offset else { return nil }
        return read(offset, wanted)
    }

    static func file(_ path: String) -> RandomAccessBytes? {
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else { return nil }
        return RandomAccessBytes(count: size) { offset, count in
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count),
                data.count == count
            else { return nil }
            return [UInt8](data)
        }
    }

    static func memory(_ data: Data) -> RandomAccessBytes {
        RandomAccessBytes(count: UInt64(data.count)) { offset, count in
            let start = data.startIndex + Int(offset)
            return [UInt8](data[start..<(start + count)])
        }
    }
}

extension Array where Element == UInt8 {
    /// Little-endian reads at offsets already checked by the caller.
    fileprivate func uint16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    fileprivate func uint32(_ at: Int) -> UInt32 { UInt32(uint16(at)) | UInt32(uint16(at + 2)) << 16 }
    fileprivate func uint64(_ at: Int) -> UInt64 { UInt64(uint32(at)) | UInt64(uint32(at + 4)) << 32 }
}
