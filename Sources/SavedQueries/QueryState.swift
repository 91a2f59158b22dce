import Foundation
import ShipcheckCore

/// What the previous run of a query found, kept under `.shipcheck/state/` (git-ignored) so
/// the next run can say what is new and what is gone.
public struct QueryState: Codable, Sendable, Hashable {
    /// The line `shipcheck init` adds to `.gitignore`: run state is per checkout, not shared.
    public static let gitignoreLine = ".shipcheck/state/"

    public struct Entry: Codable, Sendable, Hashable {
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

    /// `<root>/.shipcheck/state/queries/<scope>/<name>.json`.
    public static func path(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> String {
        let base = root == "." ? "" : root + "/"
        return base + ".shipcheck/state/queries/\(scope.rawValue)/\(query.name).json"
    }

    /// The saved state, or nil when there is none or it cannot be read (a damaged state
    /// file only costs the comparison; the next run replaces it).
    public static func load(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> QueryState? {
        let path = path(root: root, query: query, scope: scope)
        guard FileKind.of(path) == .regular, let bytes = try? SafeFileReader.read(path, sizeLimit: 512 * 1024 * 1024) else { return nil }
        return try? JSONDecoder().decode(QueryState.self, from: Data(bytes))
    }

    public func save(root: String, query: SavedQuery, scope: SavedQuery.Scope) throws(InputError) {
        let path = Self.path(root: root, query: query, scope: scope)
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: directory, message: "cannot create the query state folder")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw InputError(path: path, message: "cannot encode the query state") }
        try AtomicFile.write(Array(data), to: path)
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
