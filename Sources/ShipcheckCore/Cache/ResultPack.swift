import ScanEngine

/// The result cache's file (`ResultCache`): written by hand rather than through `Codable`, as
/// it holds an entry per file and check and a key per file, and every run reads it and most
/// write it. Entry values stay slices of the bytes read until a check asks for one.
///
/// Layout, in `CompactCoder`'s primitives: the magic text; the format; the tool's version; the
/// scanned roots; the run number; when the run began (`readAt`, the bit pattern of seconds since
/// 1970, for `FileKey.isRacy`); the entries, each its key (two fixed 64-bit words), the run that
/// last used it and its value; the file keys, each the path, the run that last saw it, the key's
/// five fields and the content hash.
struct ResultPack {
    struct Entry {
        var run: Int
        var value: ArraySlice<UInt8>
    }

    /// What a file was when a run read it.
    struct FileRecord: Equatable {
        var run: Int
        var key: FileKey
        var contentHash: String
    }

    static let magic = Array("shipcheck results\n".utf8)
    static let format: UInt64 = 3

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
        for _ in 0..<(try reader.varint()) {
            let key = ResultKey(high: try reader.fixed(), low: try reader.fixed())
            entries[key] = Entry(run: Int(clamping: try reader.varint()), value: try reader.lengthPrefixed())
        }
        for _ in 0..<(try reader.varint()) {
            let path = try reader.string()
            let run = Int(clamping: try reader.varint())
            let key = FileKey(
                device: try reader.varint(), inode: try reader.varint(), size: Int64(bitPattern: try reader.fixed()),
                modified: Int64(bitPattern: try reader.fixed()), changed: Int64(bitPattern: try reader.fixed()))
            files[path] = FileRecord(run: run, key: key, contentHash: try reader.string())
        }
        guard reader.bytes.isEmpty else { throw reader.corrupt("bytes after the end") }
    }

    var encoded: [UInt8] {
        var out = Self.magic
        out.appendVarint(Self.format)
        out.appendLengthPrefixed(toolVersion.utf8)
        out.appendLengthPrefixed(root.utf8)
        out.appendVarint(UInt64(run))
        out.appendFixed(readAt.bitPattern)
        out.appendVarint(UInt64(entries.count))
        for (key, entry) in entries {
            out.appendFixed(key.high)
            out.appendFixed(key.low)
            out.appendVarint(UInt64(entry.run))
            out.appendLengthPrefixed(entry.value)
        }
        out.appendVarint(UInt64(files.count))
        for (path, file) in files {
            out.appendLengthPrefixed(path.utf8)
            out.appendVarint(UInt64(file.run))
            out.appendVarint(file.key.device)
            out.appendVarint(file.key.inode)
            out.appendFixed(UInt64(bitPattern: file.key.size))
            out.appendFixed(UInt64(bitPattern: file.key.modified))
            out.appendFixed(UInt64(bitPattern: file.key.changed))
            out.appendLengthPrefixed(file.contentHash.utf8)
        }
        return out
    }
}
