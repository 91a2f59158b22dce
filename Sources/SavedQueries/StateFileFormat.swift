import Foundation
import ScanEngine
import ShipcheckCore

/// The files of a query's last-run state (format 2). `<name>.state` is the manifest: a JSON
/// header line (name, signature, time, counts, the segment files), then one line per file
/// with matches, `segment TAB offset TAB length TAB matches TAB key TAB path`, in listing
/// order. Each file's block — one line per match, `fingerprint TAB line TAB path TAB line
/// text` — lives in a segment file of `<name>.state.d/`, at the line's offset and length.
/// A run appends only the blocks of files that changed to one new segment and points the
/// others at the segments they are in (see `StateWriter`), so a state of hundreds of
/// thousands of matches is neither read nor written whole on every run. Tabs, newlines and
/// backslashes in paths and text are escaped.
///
/// Format 1 (before): the header without `format`, then the entry lines themselves; a file's
/// entries are contiguous (runs wrote them in listing order), so it reads as a manifest whose
/// one segment is the file itself (`PreviousState`).
enum StateFileFormat {
    static let version = 2

    struct Header: Codable {
        var name: String
        var signature: String
        var ranAt: Double
        /// Nil in format 1.
        var format: Int?
        var segments: [String]?
        var matchCount: Int?
        var fileCount: Int?
    }

    static func encode(_ header: Header) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let encoded = try? encoder.encode(header) else { return nil }
        return Array(encoded) + [UInt8(ascii: "\n")]
    }

    static func decodeHeader(_ line: some Collection<UInt8>) -> Header? {
        try? JSONDecoder().decode(Header.self, from: Data(line))
    }

    /// Segment names a state writes (`StateWriter`) and a reader accepts: 16 hex digits and
    /// `.seg`, so a damaged manifest cannot name a file elsewhere.
    static func isSegmentName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count == 20 && name.hasSuffix(".seg") && bytes.prefix(16).allSatisfy { hexDigit($0) != nil }
    }

    /// One manifest line: where a file's block is, and what the file was when it was made.
    struct FileBlock: Sendable {
        var segment: Int
        var offset: Int
        var length: Int
        var matchCount: Int
        /// Nil (`-`): the file counts as changed on the next run.
        var key: FileKey?
        var path: String
    }

    static func encode(_ block: FileBlock, into out: inout [UInt8]) {
        // Number by number (a manifest has a line per file with matches): no array per line.
        func number(_ value: Int64, then separator: Unicode.Scalar) {
            out.appendDecimal(value)
            out.append(UInt8(ascii: separator))
        }
        number(Int64(block.segment), then: "\t")
        number(Int64(block.offset), then: "\t")
        number(Int64(block.length), then: "\t")
        number(Int64(block.matchCount), then: "\t")
        if let key = block.key {
            number(Int64(bitPattern: key.device), then: ":")
            number(Int64(bitPattern: key.inode), then: ":")
            number(key.size, then: ":")
            number(key.modified, then: ":")
            number(key.changed, then: "\t")
        } else {
            out += "-\t".utf8
        }
        escape(block.path, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// A manifest line, read field by field in place (a manifest has a line per file with
    /// matches, tens of thousands on a large tree, read on every run).
    static func decodeBlock(_ line: borrowing ByteView) -> FileBlock? {
        var cursor = 0
        guard let segment = number(in: line, at: &cursor, ending: UInt8(ascii: "\t")),
            let offset = number(in: line, at: &cursor, ending: UInt8(ascii: "\t")),
            let length = number(in: line, at: &cursor, ending: UInt8(ascii: "\t")),
            let matchCount = number(in: line, at: &cursor, ending: UInt8(ascii: "\t"))
        else { return nil }
        var key: FileKey?
        if cursor + 1 < line.count, line[cursor] == UInt8(ascii: "-"), line[cursor + 1] == UInt8(ascii: "\t") {
            cursor += 2
        } else {
            guard let device = number(in: line, at: &cursor, ending: UInt8(ascii: ":")),
                let inode = number(in: line, at: &cursor, ending: UInt8(ascii: ":")),
                let size = number(in: line, at: &cursor, ending: UInt8(ascii: ":")),
                let modified = number(in: line, at: &cursor, ending: UInt8(ascii: ":")),
                let changed = number(in: line, at: &cursor, ending: UInt8(ascii: "\t"))
            else { return nil }
            key = FileKey(
                device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, modified: modified,
                changed: changed)
        }
        return FileBlock(
            segment: Int(segment), offset: Int(offset), length: Int(length), matchCount: Int(matchCount), key: key,
            path: unescape(line.array(cursor..<line.count)))
    }

    /// The decimal number (a leading minus allowed) at `cursor` up to `terminator`, with
    /// `cursor` moved past the terminator; nil when there is none.
    private static func number(in line: borrowing ByteView, at cursor: inout Int, ending terminator: UInt8)
        -> Int64?
    {
        let negative = cursor < line.count && line[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var value: UInt64 = 0
        var digits = 0
        while cursor < line.count {
            let byte = line[cursor]
            cursor += 1
            if byte == terminator { break }
            // 19 digits fit in a UInt64; an Int64's range is checked below.
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 19 else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
            if cursor == line.count { return nil }  // no terminator
        }
        guard digits > 0, value <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(value) : Int64(value)
    }

    static func encodeEntry(fingerprint: String, line: Int, path: String, lineText: String, into out: inout [UInt8]) {
        out += fingerprint.utf8
        out.append(UInt8(ascii: "\t"))
        out.appendDecimal(line)
        out.append(UInt8(ascii: "\t"))
        escape(path, into: &out)
        out.append(UInt8(ascii: "\t"))
        escape(lineText, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// One file's entries as a run writes them, from the file's bytes: the path escaped once,
    /// each line's text escaped as it is (through a string only when it is not ASCII, so
    /// invalid UTF-8 is replaced as in `String(lossyUTF8:)`).
    struct EntryWriter {
        private let path: [UInt8]

        init(path: String) {
            var escaped: [UInt8] = []
            StateFileFormat.escape(path, into: &escaped)
            self.path = escaped
        }

        func append(fingerprint: UInt128, line: Int, lineText: borrowing ByteView, to out: inout [UInt8]) {
            StableHash.appendHex(fingerprint, to: &out)
            out.append(UInt8(ascii: "\t"))
            out.appendDecimal(line)
            out.append(UInt8(ascii: "\t"))
            out += path
            out.append(UInt8(ascii: "\t"))
            if lineText.allSatisfy({ $0 < 0x80 }) {
                StateFileFormat.escape(lineText, into: &out)
            } else {
                StateFileFormat.escape(lineText.string(), into: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    static func decodeEntry(_ line: some Collection<UInt8>) -> QueryState.Entry? {
        let fields = Array(line).split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let number = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return QueryState.Entry(
            fingerprint: String(decoding: fields[0], as: UTF8.self), path: unescape(fields[2]), line: number,
            lineText: unescape(fields[3]))
    }

    /// Where the escaped path of an entry line (its third field) is, or nil.
    static func escapedPath(ofEntry line: borrowing ByteView) -> Range<Int>? {
        let tab = UInt8(ascii: "\t")
        guard let first = line.firstIndex(of: tab), let second = line.firstIndex(of: tab, from: first + 1),
            let third = line.firstIndex(of: tab, from: second + 1)
        else { return nil }
        return (second + 1)..<third
    }

    /// The fingerprint of an entry line as a number (it is 32 hex digits), or nil.
    static func fingerprint(ofEntry line: borrowing ByteView) -> UInt128? {
        var value: UInt128 = 0
        var digits = 0
        for index in line.indices {
            let byte = line[index]
            if byte == UInt8(ascii: "\t") { break }
            guard digits < 32, let digit = hexDigit(byte) else { return nil }
            value = value << 4 | UInt128(digit)
            digits += 1
        }
        return digits == 32 ? value : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Calls `body` with each line of `bytes` that is not empty (without its newline) and the
    /// line's offset, until `body` returns false. False when `body` stopped.
    static func forEachLine(_ bytes: borrowing ByteView, _ body: (borrowing ByteView, Int) -> Bool) -> Bool {
        var start = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n"), from: start) ?? bytes.count
            if end > start, !bytes.withSlice(start..<end, { body($0, start) }) { return false }
            start = end + 1
        }
        return true
    }

    /// A path or line as a field of the state files: backslash, tab, newline and CR escaped, so
    /// no field holds a delimiter and `unescape` gives the text back. `FileEnumerator.escaped`
    /// leaves backslashes as they are (what it shows is never read back), so it cannot serve.
    static func escape(_ text: String, into out: inout [UInt8]) {
        text.withByteView { escape($0, into: &out) }
    }

    private static func escape(_ text: borrowing ByteView, into out: inout [UInt8]) {
        // Most paths and lines need no escape: appended whole.
        guard
            !text.allSatisfy({
                $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\n")
                    && $0 != UInt8(ascii: "\r")
            })
        else {
            out.append(bytes: text)
            return
        }
        for index in text.indices {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: out.append(byte)
            }
        }
    }

    static func unescape(_ field: some Collection<UInt8>) -> String {
        guard field.contains(UInt8(ascii: "\\")) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        var escaped = false
        for byte in field {
            if escaped {
                switch byte {
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                default: out.append(byte)
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
