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
        /// Sorted.
        let fingerprints: [UInt128]
        let path: String

        public static func load(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> Baseline? {
            let path = QueryState.path(root: root, query: query, scope: scope)
            guard FileKind.of(path) == .regular else { return nil }
            var header: StateFileFormat.Header?
            var fingerprints: [UInt128] = []
            var damaged = false
            let read = StateFileFormat.forEachLine(path) { line in
                guard header != nil else {
                    header = StateFileFormat.decodeHeader(line)
                    return header != nil
                }
                guard let value = StateFileFormat.fingerprint(ofEntry: line) else {
                    damaged = true
                    return false
                }
                fingerprints.append(value)
                return true
            }
            guard read, !damaged, let header else { return nil }
            fingerprints.sort()
            return Baseline(name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: fingerprints.count,
                            fingerprints: fingerprints, path: path)
        }

        func contains(_ fingerprint: UInt128) -> Bool { Self.contains(fingerprint, in: fingerprints) }

        /// The previous run's entries whose fingerprints are not in `current` (sorted).
        func entries(notIn current: [UInt128]) -> [Entry] {
            var gone: [Entry] = []
            var isHeader = true
            _ = StateFileFormat.forEachLine(path) { line in
                if isHeader {
                    isHeader = false
                } else if let value = StateFileFormat.fingerprint(ofEntry: line), !Self.contains(value, in: current),
                          let entry = StateFileFormat.decodeEntry(line) {
                    gone.append(entry)
                }
                return true
            }
            return gone
        }

        static func contains(_ value: UInt128, in sorted: [UInt128]) -> Bool {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low < sorted.count && sorted[low] == value
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
        out += String(line).utf8
        out.append(UInt8(ascii: "\t"))
        escape(path, into: &out)
        out.append(UInt8(ascii: "\t"))
        escape(lineText, into: &out)
        out.append(UInt8(ascii: "\n"))
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
        // Most paths and lines need no escape: appended whole.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            out += text.utf8
            return
        }
        for byte in text.utf8 {
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
