import Foundation
import ShipcheckCore

/// What the previous run of a query found, kept under `.shipcheck/state/` (git-ignored) so
/// the next run can say what is new and what is gone.
public struct QueryState: Sendable, Hashable {
    /// The line `shipcheck init` adds to `.gitignore`: run state is per checkout, not shared.
    public static let gitignoreLine = ".shipcheck/state/"

    public struct Entry: Sendable, Hashable {
        public var fingerprint: String
        public var path: String
        public var line: Int
        public var lineText: String
    }

    public var name: String
    /// `SavedQuery.definitionSignature` of the query that produced this state.
    public var signature: String
    /// Seconds since 1970 (UTC).
    public var ranAt: Double
    public var matchCount: Int
    public var matches: [Entry]

    /// `<root>/.shipcheck/state/queries/<scope>/<name>.state`.
    public static func path(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> String {
        let base = root == "." ? "" : root + "/"
        return base + ".shipcheck/state/queries/\(scope.rawValue)/\(query.name).state"
    }

    /// The saved state, or nil when there is none or it cannot be read (a damaged state
    /// file only costs the comparison; the next run replaces it).
    public static func load(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> QueryState? {
        let path = path(root: root, query: query, scope: scope)
        guard FileKind.of(path) == .regular, let bytes = try? SafeFileReader.read(path, sizeLimit: 1024 * 1024 * 1024) else { return nil }
        return StateFileFormat.decode(bytes)
    }

    public func save(root: String, query: SavedQuery, scope: SavedQuery.Scope) throws(InputError) {
        let writer = try Writer(root: root, query: query, scope: scope, header: StateFileFormat.Header(name: name, signature: signature, ranAt: ranAt))
        for entry in matches { writer.append(fingerprint: entry.fingerprint, line: entry.line, path: entry.path, lineText: entry.lineText) }
        try writer.commit()
    }

    /// A state written as a run goes, entry by entry, and put in place (atomically) by `commit`
    /// only: a run that is dropped or cut short leaves the previous state as it was.
    public final class Writer {
        private let file: AtomicFile.Writer
        private var line: [UInt8] = []

        init(root: String, query: SavedQuery, scope: SavedQuery.Scope, header: StateFileFormat.Header) throws(InputError) {
            let path = QueryState.path(root: root, query: query, scope: scope)
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw InputError(path: directory, message: "cannot create the query state folder")
            }
            file = try AtomicFile.Writer(path: path)
            guard let encoded = StateFileFormat.encode(header) else { throw InputError(path: path, message: "cannot encode the query state") }
            file.output.write(encoded)
        }

        /// For a run that starts now.
        public convenience init(root: String, query: SavedQuery, scope: SavedQuery.Scope, ranAt: Double) throws(InputError) {
            try self.init(root: root, query: query, scope: scope,
                          header: StateFileFormat.Header(name: query.name, signature: query.definitionSignature, ranAt: ranAt))
        }

        func append(fingerprint: String, line number: Int, path: String, lineText: String) {
            line.removeAll(keepingCapacity: true)
            StateFileFormat.encodeEntry(fingerprint: fingerprint, line: number, path: path, lineText: lineText, into: &line)
            file.output.write(line)
        }

        /// Entries already encoded (`StateFileFormat.encodeEntry`).
        func append(_ encoded: [UInt8]) { file.output.write(encoded) }

        public func commit() throws(InputError) { try file.commit() }
    }

    /// What a new run compares with: the previous run's header and fingerprints, without the
    /// paths and lines (read again, for what is gone, only at the end).
    public struct Baseline: Sendable {
        public var name: String
        public var signature: String
        public var ranAt: Double
        public var matchCount: Int
        /// The previous run's fingerprints in an open-addressing table (linear probing, zero
        /// for an empty slot): a fingerprint is a uniform hash, so its top bits are its slot
        /// and a lookup is one cache line, not a search through them all.
        private let slots: [UInt128]
        private let slotBits: Int
        let path: String

        public static func load(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> Baseline? {
            let path = QueryState.path(root: root, query: query, scope: scope)
            guard FileKind.of(path) == .regular else { return nil }
            // Lines first, so the table is made once, at its size, with a third of it free.
            var lines = 0
            guard StateFileFormat.forEachLine(path, { _ in lines += 1; return true }) else { return nil }
            let slotBits = max(1, Int.bitWidth - (lines + lines / 2).leadingZeroBitCount)
            var slots = [UInt128](repeating: 0, count: 1 << slotBits)
            var header: StateFileFormat.Header?
            var count = 0
            var damaged = false
            let read = StateFileFormat.forEachLine(path) { line in
                guard header != nil else {
                    header = StateFileFormat.decodeHeader(line)
                    return header != nil
                }
                guard let value = StateFileFormat.fingerprint(ofEntry: line), value != 0, count < slots.count - 1 else {
                    damaged = true
                    return false
                }
                var slot = Self.slot(of: value, bits: slotBits)
                while slots[slot] != 0 && slots[slot] != value { slot = (slot + 1) & (slots.count - 1) }
                if slots[slot] == 0 {
                    slots[slot] = value
                    count += 1
                }
                return true
            }
            guard read, !damaged, let header else { return nil }
            return Baseline(name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: count, slots: slots, slotBits: slotBits, path: path)
        }

        private static func slot(of fingerprint: UInt128, bits: Int) -> Int {
            Int(truncatingIfNeeded: fingerprint >> UInt128(128 - bits))
        }

        /// The slot of `fingerprint` among the previous run's, or nil when it is not one of them.
        func index(of fingerprint: UInt128) -> Int? {
            var slot = Self.slot(of: fingerprint, bits: slotBits)
            while true {
                let value = slots[slot]
                if value == fingerprint { return value == 0 ? nil : slot }
                if value == 0 { return nil }
                slot = (slot + 1) & (slots.count - 1)
            }
        }

        /// Marks for the previous run's fingerprints, none marked yet.
        func unmarked() -> Marks { Marks(count: slots.count) }

        /// The previous run's entries whose fingerprints are not marked in `seen`.
        func entries(unmarkedIn seen: Marks) -> [Entry] {
            var gone: [Entry] = []
            var isHeader = true
            _ = StateFileFormat.forEachLine(path) { line in
                if isHeader {
                    isHeader = false
                } else if let value = StateFileFormat.fingerprint(ofEntry: line), let index = index(of: value), !seen.isMarked(index),
                          let entry = StateFileFormat.decodeEntry(line) {
                    gone.append(entry)
                }
                return true
            }
            return gone
        }

        /// One bit per slot of the previous run's fingerprints: which a new run has met.
        public struct Marks: Sendable {
            private var words: [UInt64]
            public private(set) var marked = 0

            init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

            mutating func mark(_ index: Int) {
                let bit: UInt64 = 1 << (index % 64)
                guard words[index / 64] & bit == 0 else { return }
                words[index / 64] |= bit
                marked += 1
            }

            func isMarked(_ index: Int) -> Bool { words[index / 64] & (1 << (index % 64)) != 0 }
        }
    }

    /// Moves or removes a query's state when the query is renamed or removed.
    public static func move(root: String, from old: SavedQuery, to new: SavedQuery?, scope: SavedQuery.Scope) {
        let oldPath = path(root: root, query: old, scope: scope)
        guard FileKind.of(oldPath) == .regular else { return }
        if let new {
            _ = rename(oldPath, path(root: root, query: new, scope: scope))
        } else {
            _ = unlink(oldPath)
        }
    }
}

/// The state file: a JSON header line (name, signature, time), then one line per match,
/// `fingerprint TAB line TAB path TAB line text`, tabs, newlines and backslashes escaped.
/// Line-oriented rather than one JSON document so a run writes it as it goes and a query with
/// hundreds of thousands of matches loads and saves in milliseconds. (States written before
/// runs streamed carry `matchCount` in the header; it is read and ignored.)
enum StateFileFormat {
    struct Header: Codable {
        var name: String
        var signature: String
        var ranAt: Double
    }

    static func encode(_ header: Header) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let encoded = try? encoder.encode(header) else { return nil }
        return Array(encoded) + [UInt8(ascii: "\n")]
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

        func append(fingerprint: UInt128, line: Int, lineText: UnsafeRawBufferPointer, to out: inout [UInt8]) {
            StableHash.appendHex(fingerprint, to: &out)
            out.append(UInt8(ascii: "\t"))
            out.appendDecimal(line)
            out.append(UInt8(ascii: "\t"))
            out += path
            out.append(UInt8(ascii: "\t"))
            if lineText.allSatisfy({ $0 < 0x80 }) {
                StateFileFormat.escape(lineText, into: &out)
            } else {
                StateFileFormat.escape(String(lossyUTF8: lineText), into: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    static func decode(_ bytes: [UInt8]) -> QueryState? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, let header = decodeHeader(first) else { return nil }
        var matches: [QueryState.Entry] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let entry = decodeEntry(line) else { return nil }
            matches.append(entry)
        }
        return QueryState(name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: matches.count, matches: matches)
    }

    static func decodeHeader(_ line: some Collection<UInt8>) -> Header? {
        try? JSONDecoder().decode(Header.self, from: Data(line))
    }

    static func decodeEntry(_ line: some Collection<UInt8>) -> QueryState.Entry? {
        let fields = Array(line).split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let number = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return QueryState.Entry(fingerprint: String(decoding: fields[0], as: UTF8.self), path: unescape(fields[2]), line: number, lineText: unescape(fields[3]))
    }

    /// The fingerprint of an entry line as a number (it is 32 hex digits), or nil.
    static func fingerprint(ofEntry line: UnsafeRawBufferPointer) -> UInt128? {
        var value: UInt128 = 0
        var digits = 0
        for byte in line {
            if byte == UInt8(ascii: "\t") { break }
            guard digits < 32, let digit = hexDigit(byte) else { return nil }
            value = value << 4 | UInt128(digit)
            digits += 1
        }
        return digits == 32 ? value : nil
    }

    /// The same for a fingerprint string.
    static func fingerprint(_ text: String) -> UInt128? {
        var text = text
        return text.withUTF8 { fingerprint(ofEntry: UnsafeRawBufferPointer($0)) }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Calls `body` with each non-empty line of the file (without its newline), reading it in
    /// chunks, until `body` returns false. False when the file cannot be read or `body` stopped.
    static func forEachLine(_ path: String, _ body: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var carry: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return false }
            if count == 0 { break }
            var start = 0
            let stopped = chunk.withUnsafeBytes { bytes -> Bool in
                let valid = UnsafeRawBufferPointer(rebasing: bytes[..<count])
                while let newline = ByteSearch.find(byte: UInt8(ascii: "\n"), in: valid, from: start) {
                    defer { start = newline + 1 }
                    if carry.isEmpty {
                        if newline > start, !body(UnsafeRawBufferPointer(rebasing: valid[start..<newline])) { return true }
                    } else {
                        carry += valid[start..<newline]
                        defer { carry.removeAll(keepingCapacity: true) }
                        if !carry.withUnsafeBytes(body) { return true }
                    }
                }
                carry += valid[start...]
                return false
            }
            if stopped { return false }
        }
        return carry.isEmpty || carry.withUnsafeBytes(body)
    }

    private static func escape(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { escape(UnsafeRawBufferPointer($0), into: &out) }
    }

    private static func escape(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        // Most paths and lines need no escape: appended whole.
        guard text.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            out += text
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: out.append(byte)
            }
        }
    }

    private static func unescape(_ field: ArraySlice<UInt8>) -> String {
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
