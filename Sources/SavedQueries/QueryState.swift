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
        let path = Self.path(root: root, query: query, scope: scope)
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: directory, message: "cannot create the query state folder")
        }
        guard let bytes = StateFileFormat.encode(self) else { throw InputError(path: path, message: "cannot encode the query state") }
        try AtomicFile.write(bytes, to: path)
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

/// The state file: a JSON header line (name, signature, time, count), then one line per
/// match, `fingerprint TAB line TAB path TAB line text`, tabs, newlines and backslashes
/// escaped. Line-oriented rather than one JSON document because a query with hundreds of
/// thousands of matches must load and save in milliseconds, not seconds.
enum StateFileFormat {
    private struct Header: Codable {
        var name: String
        var signature: String
        var ranAt: Double
        var matchCount: Int
    }

    static func encode(_ state: QueryState) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let header = try? encoder.encode(Header(name: state.name, signature: state.signature, ranAt: state.ranAt, matchCount: state.matchCount)) else { return nil }
        var out = Array(header)
        out.append(UInt8(ascii: "\n"))
        for entry in state.matches {
            out += entry.fingerprint.utf8
            out.append(UInt8(ascii: "\t"))
            out += String(entry.line).utf8
            out.append(UInt8(ascii: "\t"))
            escape(entry.path, into: &out)
            out.append(UInt8(ascii: "\t"))
            escape(entry.lineText, into: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) -> QueryState? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, let header = try? JSONDecoder().decode(Header.self, from: Data(first)) else { return nil }
        var matches: [QueryState.Entry] = []
        matches.reserveCapacity(header.matchCount)
        for line in lines.dropFirst() where !line.isEmpty {
            let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let number = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
            matches.append(QueryState.Entry(fingerprint: String(decoding: fields[0], as: UTF8.self), path: unescape(fields[2]), line: number, lineText: unescape(fields[3])))
        }
        return QueryState(name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: header.matchCount, matches: matches)
    }

    private static func escape(_ text: String, into out: inout [UInt8]) {
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
