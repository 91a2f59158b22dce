import ScanEngine

/// The result cache's file (`ResultCache`): written by hand rather than through `Codable`, as
/// it holds an entry per file and check and a key per file, and every run reads it and most
/// write it. A run streams it as results are made (nothing it records stays in memory), so it
/// is a sequence of tagged records; entry values stay slices of the bytes read until a check
/// asks for one. Where a key or path comes twice, the first record counts (a run writes what it
/// made before what it carries over).
///
/// Layout, in `CompactCoder`'s primitives: the magic text; the format; the tool's version; the
/// scanned roots; the run number; when the run began (`readAt`, the bit pattern of seconds since
/// 1970, for `FileKey.isRacy`); then records, each a tag and its fields — an entry: its key (two
/// fixed 64-bit words), the run that last used it, its value and the value's checksum; a file:
/// its path, the run that last saw it, the key's five fields, the content hash and the record's
/// checksum — and the end tag. A pack without its end tag was cut short and is not trusted; a
/// file record whose checksum fails makes the whole pack untrusted, an entry whose checksum
/// fails is no entry (`isIntact`, checked when a check asks for it).
struct ResultPack {
    struct Entry {
        var run: Int
        var value: ArraySlice<UInt8>
        var checksum: UInt64

        /// Whether the value is the one written under `key` (no damage since).
        func isIntact(under key: ResultKey) -> Bool { checksum == ResultPack.checksum(value, key: key) }
    }

    /// XXH64 of a value, seeded with its key's low word: a value moved to another key fails too.
    static func checksum(_ value: ArraySlice<UInt8>, key: ResultKey) -> UInt64 {
        value.withByteView { ContentHash.xxh64($0, seed: key.low) }
    }

    /// What a file was when a run read it.
    struct FileRecord: Equatable {
        var run: Int
        var key: FileKey
        var contentHash: String
    }

    static let magic = Array("shipcheck results\n".utf8)
    static let format: UInt64 = 4
    private enum Tag: UInt8 {
        case end = 0
        case entry = 1
        case file = 2
    }

    var toolVersion: String
    var root: String
    var run: Int
    var readAt: Double
    var entries: [ResultKey: Entry] = [:]
    var files: [String: FileRecord] = [:]

    init(toolVersion: String, root: String, run: Int, readAt: Double) {
        self.toolVersion = toolVersion
        self.root = root
        self.run = run
        self.readAt = readAt
    }

    /// The pack in `bytes`; throws `DecodingError` on anything it does not expect.
    init(decoding bytes: [UInt8]) throws {
        var reader = CompactByteReader(bytes: bytes[...], codingPath: [])
        guard try reader.take(UInt64(Self.magic.count)).elementsEqual(Self.magic), try reader.varint() == Self.format
        else { throw reader.corrupt("not a result pack of this format") }
        self.init(
            toolVersion: try reader.string(), root: try reader.string(), run: Int(clamping: try reader.varint()),
            readAt: Double(bitPattern: try reader.fixed()))
        while true {
            switch Tag(rawValue: try reader.take(1).first ?? 0xFF) {
            case .end?:
                guard reader.bytes.isEmpty else { throw reader.corrupt("bytes after the end") }
                return
            case .entry?:
                let key = ResultKey(high: try reader.fixed(), low: try reader.fixed())
                let entry = Entry(
                    run: Int(clamping: try reader.varint()), value: try reader.lengthPrefixed(),
                    checksum: try reader.fixed())
                if entries[key] == nil { entries[key] = entry }
            case .file?:
                let start = reader.bytes.startIndex - 1
                let path = try reader.string()
                let run = Int(clamping: try reader.varint())
                let key = FileKey(
                    device: try reader.varint(), inode: try reader.varint(),
                    size: Int64(bitPattern: try reader.fixed()), modified: Int64(bitPattern: try reader.fixed()),
                    changed: Int64(bitPattern: try reader.fixed()))
                let file = FileRecord(run: run, key: key, contentHash: try reader.string())
                let written = bytes[start..<reader.bytes.startIndex].withByteView { ContentHash.xxh64($0) }
                guard try reader.fixed() == written else { throw reader.corrupt("a damaged file record") }
                if files[path] == nil { files[path] = file }
            case nil:
                throw reader.corrupt("an unknown record")
            }
        }
    }

    /// The pack's first bytes: everything before the records.
    var header: [UInt8] {
        var out = Self.magic
        out.appendVarint(Self.format)
        out.appendLengthPrefixed(toolVersion.utf8)
        out.appendLengthPrefixed(root.utf8)
        out.appendVarint(UInt64(run))
        out.appendFixed(readAt.bitPattern)
        return out
    }

    /// An entry's record; `checksum` is the value's (`checksum(_:key:)`).
    static func entryRecord(_ key: ResultKey, run: Int, value: ArraySlice<UInt8>, checksum: UInt64) -> [UInt8] {
        var out = [Tag.entry.rawValue]
        out.reserveCapacity(value.count + 32)
        out.appendFixed(key.high)
        out.appendFixed(key.low)
        out.appendVarint(UInt64(run))
        out.appendLengthPrefixed(value)
        out.appendFixed(checksum)
        return out
    }

    static func fileRecord(_ path: String, _ file: FileRecord) -> [UInt8] {
        var out = [Tag.file.rawValue]
        out.appendLengthPrefixed(path.utf8)
        out.appendVarint(UInt64(file.run))
        out.appendVarint(file.key.device)
        out.appendVarint(file.key.inode)
        out.appendFixed(UInt64(bitPattern: file.key.size))
        out.appendFixed(UInt64(bitPattern: file.key.modified))
        out.appendFixed(UInt64(bitPattern: file.key.changed))
        out.appendLengthPrefixed(file.contentHash.utf8)
        out.appendFixed(out.withByteView { ContentHash.xxh64($0) })
        return out
    }

    static let endRecord = [Tag.end.rawValue]
}
