import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

/// Per-file results kept between runs (`shipcheck sources --cache FILE`), so a build step that re-runs because
/// one file changed parses only that file.  A file's entry is reused when its bytes hash the same, it is named
/// the same way, and its development-only reason and the analyzer settings (compilation conditions, rule
/// severities, generated files) are unchanged; the whole cache is dropped when the tool version differs. Files
/// no longer scanned drop out on the next write. A missing or unreadable cache is an empty one: it only ever
/// saves work, it never changes what is reported.
package final class SourceScanCache: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        var relativePath: String
        var contentHash: String
        var developmentReason: String?
        var settings: String
        var findings: [Finding]
        var error: InputError?
    }

    private struct Stored: Codable {
        var key: String
        var entries: [String: Entry]
    }

    private let key: String
    private let previous: [String: Entry]
    /// What this run saw: reused and fresh entries, by the path the file was opened as.
    private let current = Mutex<[String: Entry]>([:])

    /// The cache at `path` if the same tool version wrote it, else an empty one.
    package init(path: String, toolVersion: String) {
        key = toolVersion
        if let data = FileManager.default.contents(atPath: path),
            let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.key == key
        {
            previous = stored.entries
        } else {
            previous = [:]
        }
    }

    /// Number of files whose earlier result was reused in this run.
    package var reusedCount: Int {
        current.withLock { entries in entries.filter { previous[$0.key] == $0.value }.count }
    }

    /// Writes what this run saw, atomically.
    package func write(to path: String) throws(InputError) {
        let stored = Stored(key: key, entries: current.withLock { $0 })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(stored) else {
            throw InputError(path: path, message: "cannot encode the cache")
        }
        try AtomicFile.write(data, to: path)
    }

    /// The earlier result for `contents` if nothing that decides it changed (and then it is
    /// kept for the next run).
    func lookup(_ contents: FileContents, developmentReason: String?, settings: String) -> Entry? {
        let file = contents.file
        guard let entry = previous[file.path], entry.relativePath == file.relativePath,
            entry.developmentReason == developmentReason,
            entry.settings == settings, entry.contentHash == contents.withBytes(StableHash.hex128)
        else { return nil }
        current.withLock { $0[file.path] = entry }
        return entry
    }

    func record(
        _ contents: FileContents, developmentReason: String?, settings: String, findings: [Finding], error: InputError?
    ) {
        let entry = Entry(
            relativePath: contents.file.relativePath, contentHash: contents.withBytes(StableHash.hex128),
            developmentReason: developmentReason, settings: settings, findings: findings, error: error)
        current.withLock { $0[contents.file.path] = entry }
    }

    /// Everything in the configuration that decides a file's findings before severities are
    /// applied (the one place that happens is after the scan, so they are not part of it).
    static func settings(of configuration: Configuration, ruleIDs: [String]) -> String {
        [
            configuration.debugOnlyFlags.sorted().joined(separator: ","),
            configuration.releaseSetFlags.sorted().joined(separator: ","),
            ruleIDs.sorted().joined(separator: ","),
            configuration.generated.globs.map(\.pattern).joined(separator: ","),
            configuration.checkGenerated.sorted().joined(separator: ",")
        ].joined(separator: "\u{1F}")
    }
}
