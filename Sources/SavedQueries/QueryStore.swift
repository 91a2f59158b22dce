import Foundation
import ScanEngine
import ShipcheckCore

/// A YAML file of saved queries: the repository's `.shipcheck/queries.yml` or the personal
/// `$XDG_CONFIG_HOME/shipcheck/queries.yml`.
///
/// Reads go through `YAMLMapping` (unknown keys and wrong types are errors with a line).
/// Writes re-read the file inside an exclusive lock, apply the change and replace the file
/// atomically, so concurrent writers serialise and never lose an update; a store that does
/// not parse is never written.
package struct QueryStore: Sendable {
    package let path: String
    package let scope: SavedQuery.Scope

    package init(path: String, scope: SavedQuery.Scope) {
        self.path = path
        self.scope = scope
    }

    /// The repository store of `root`, at the configuration's `queries:` path.
    package static func repository(root: String, configuration: Configuration) -> QueryStore {
        let file = configuration.settings(QuerySettings.self).file
        let path = file.hasPrefix("/") ? file : (root == "." ? file : "\(root)/\(file)")
        return QueryStore(path: path, scope: .repository)
    }

    /// The personal store: `$XDG_CONFIG_HOME/shipcheck/queries.yml`, else `~/.config/...`.
    package static func personal(environment: [String: String] = ProcessInfo.processInfo.environment) -> QueryStore {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return QueryStore(path: base + "/shipcheck/queries.yml", scope: .personal)
    }

    static let sizeLimit = 8 * 1024 * 1024

    /// The queries in the store; a missing store is an empty one. Read through `source`, so a
    /// scan that reads the file again gets the same bytes.
    package func load(source: any FileSource = DiskFileSource()) throws(InputError) -> [SavedQuery] {
        guard FileKind.of(path) != nil else { return [] }
        let bytes = try source.read(path, displayPath: path, sizeLimit: Self.sizeLimit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: path, message: "query store is not valid UTF-8")
        }
        return try QueryStoreFormat.parse(text, file: path)
    }

    /// Reads, changes and rewrites the store under its lock (`<store>.lock`, beside it).
    /// `change` sees the current queries; when it throws, nothing is written.
    @discardableResult
    package func modify<T>(_ change: (inout [SavedQuery]) throws(InputError) -> T) throws(InputError) -> T {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw InputError(path: directory, message: "cannot create the query store's folder")
            }
        }
        do {
            return try FileLock.withLock(at: path + ".lock") {
                var queries = try load()
                let result = try change(&queries)
                try AtomicFile.write(QueryStoreFormat.render(queries), to: path)
                return result
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: path, message: "\(error)")
        }
    }
}

extension QueryStore {
    /// The store's queries tagged with their scope.
    package func loadScoped(source: any FileSource = DiskFileSource()) throws(InputError) -> [ScopedQuery] {
        try load(source: source).map { ScopedQuery(query: $0, scope: scope, storePath: path) }
    }
}
