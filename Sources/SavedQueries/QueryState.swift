import Foundation
import ScanEngine
import ShipcheckCore

/// What the previous run of a query found, kept under `.shipcheck/state/` (git-ignored) so
/// the next run can say what is new and what is gone (`StateFileFormat`, `PreviousState`,
/// `StateWriter`). This is its summary, as `query list` and `query show` give it, from the
/// manifest's header alone.
package struct QueryState: Sendable, Hashable {
    package struct Entry: Sendable, Hashable {
        package var fingerprint: String
        package var path: String
        package var line: Int
        package var lineText: String
    }

    package var name: String
    /// `SavedQuery.definitionSignature` of the query that produced this state.
    package var signature: String
    /// Seconds since 1970 (UTC).
    package var ranAt: Double
    package var matchCount: Int

    /// `<root>/.shipcheck/state/queries/<scope>/<name>.state`: the manifest.
    package static func path(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> String {
        let base = root == "." ? "" : root + "/"
        return base + ".shipcheck/state/queries/\(scope.rawValue)/\(query.name).state"
    }

    /// Where the segments of the state at `manifest` are.
    static func segmentFolder(_ manifest: String) -> String { manifest + ".d" }

    /// The lock a run holds while it replaces the state at `manifest` (`StateWriter.commit`).
    static func lockPath(_ manifest: String) -> String { manifest + ".lock" }

    /// The saved state's summary, or nil when there is none or it cannot be read (a damaged
    /// state only costs the comparison; the next run replaces it).
    package static func load(root: String, query: SavedQuery, scope: SavedQuery.Scope) -> QueryState? {
        let path = path(root: root, query: query, scope: scope)
        guard FileKind.of(path) == .regular, let header = firstLine(of: path).flatMap(StateFileFormat.decodeHeader)
        else { return nil }
        if header.format == nil {
            // Format 1 has no counts: its matches are its lines.
            guard case .loaded(let state) = PreviousState.load(manifest: path) else { return nil }
            return QueryState(
                name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: state.matchCount)
        }
        guard header.format == StateFileFormat.version, let matchCount = header.matchCount else { return nil }
        return QueryState(name: header.name, signature: header.signature, ranAt: header.ranAt, matchCount: matchCount)
    }

    /// The first line of the file at `path`.
    private static func firstLine(of path: String) -> [UInt8]? {
        let descriptor = SystemCalls.openFile(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return PreviousState.firstLine(descriptor)
    }

    /// Moves or removes a query's state (manifest and segments) when the query is renamed or
    /// removed, under the state's lock so a run does not commit into it meanwhile.
    package static func move(root: String, from old: SavedQuery, to new: SavedQuery?, scope: SavedQuery.Scope) {
        let oldPath = path(root: root, query: old, scope: scope)
        guard FileKind.of(oldPath) == .regular || FileKind.of(segmentFolder(oldPath)) == .directory else { return }
        _ = try? FileLock.withLock(at: lockPath(oldPath)) {
            if let new {
                let newPath = path(root: root, query: new, scope: scope)
                try? FileManager.default.removeItem(atPath: segmentFolder(newPath))
                SystemCalls.moveFile(oldPath, to: newPath)
                SystemCalls.moveFile(segmentFolder(oldPath), to: segmentFolder(newPath))
            } else {
                SystemCalls.removeFile(oldPath)
                try? FileManager.default.removeItem(atPath: segmentFolder(oldPath))
            }
        }
        SystemCalls.removeFile(lockPath(oldPath))
    }
}
