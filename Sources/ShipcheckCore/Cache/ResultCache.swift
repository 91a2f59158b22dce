import Foundation
import ScanEngine
import Synchronization

/// Per-file results kept on disk between runs, so a re-run parses only the files that changed
/// (SwiftLint's cache, for the same reason). A check stores what it made of a file — findings,
/// and the facts cross-file questions are answered from — under a key of the file's path, its
/// content hash and everything else that decides the result (`settings`); the tool's version
/// decides the whole cache. Cross-file answers are never stored: they are worked out again from
/// the facts on every run, so a cached run reports exactly what a cold one does.
///
/// One pack file per scanned root (or set of roots), replaced atomically: a crash leaves the old
/// pack, and runs at the same time each put in a complete pack of their own (the last one
/// stays). A pack that does not decode, from another version, or an entry that does not decode
/// as what the check asks for is ignored and rebuilt, never trusted. Entries not used for
/// `keptRuns` runs are dropped, and when the directory outgrows its size limit the least recently
/// used packs go (a pack's modification time is its last use).
package final class ResultCache: ResultStore {
    /// The cache directory.
    package let directory: String
    private let packPath: String
    private let root: String
    private let toolVersion: String
    private let previous: [String: Entry]
    private let run: Int
    /// What this run used or made, by key.
    private let current = Mutex<[String: Entry]>([:])
    private let reused = Atomic<Int>(0)
    /// Whether this run recorded a result the pack did not hold.
    private let recorded = Atomic<Bool>(false)

    /// How many runs an entry stays unused (a branch switched back to still finds its files).
    static let keptRuns = 8
    /// The default bound on the directory's size: packs least recently used beyond it are removed.
    package static let defaultSizeLimit = 512 * 1024 * 1024
    private let sizeLimit: Int

    private struct Entry: Codable {
        var run: Int
        var value: Data
    }

    private struct Pack: Codable {
        var format: Int
        var toolVersion: String
        var root: String
        var run: Int
        var entries: [String: Entry]
    }

    private static let format = 2

    /// The cache of the results for `roots` in `directory`, as left by earlier runs of this version.
    package init(directory: String, roots: [String], toolVersion: String, sizeLimit: Int = defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        let absoluteRoot = roots.map(Self.absolute).sorted().joined(separator: "\n")
        self.root = absoluteRoot
        packPath = directory + "/results-" + String(StableHash.hex128(absoluteRoot).prefix(16)) + ".pack"
        self.toolVersion = toolVersion
        // Read as any input is: a FIFO or device put there never blocks the run, and a pack past
        // the size limit is no pack.
        let pack = (try? SafeFileReader.read(packPath, sizeLimit: sizeLimit)).flatMap {
            try? CompactCoder.decode(Pack.self, from: $0)
        }
        if let pack, pack.format == Self.format, pack.toolVersion == toolVersion, pack.root == absoluteRoot {
            previous = pack.entries
            run = pack.run + 1
        } else {
            previous = [:]
            run = 1
        }
    }

    /// Where results are kept when no `--cache-path` is given: `$XDG_CACHE_HOME/shipcheck` when
    /// that is set to an absolute path (on macOS too: the GitLab template and CI runners set it
    /// to a folder their cache keeps), else `~/Library/Caches/shipcheck` on macOS and
    /// `~/.cache/shipcheck` elsewhere.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/shipcheck" }
        #if os(macOS)
        return environment["HOME"].map { $0 + "/Library/Caches/shipcheck" }
        #else
        return environment["HOME"].map { $0 + "/.cache/shipcheck" }
        #endif
    }

    /// The value stored under `key`, or nil when there is none or it does not decode as `type`.
    package func value<Value: Decodable>(_ type: Value.Type, for key: String) -> Value? {
        guard let entry = previous[key], let value = try? CompactCoder.decode(type, from: Array(entry.value)) else {
            return nil
        }
        current.withLock { $0[key] = Entry(run: run, value: entry.value) }
        reused.add(1, ordering: .relaxed)
        return value
    }

    /// Stores `value` under `key` for the next runs.
    package func record(_ value: some Encodable, for key: String) {
        guard let bytes = try? CompactCoder.encode(value) else { return }
        current.withLock { $0[key] = Entry(run: run, value: Data(bytes)) }
        recorded.store(true, ordering: .relaxed)
    }

    /// How many results this run took from the cache.
    package var reusedCount: Int { reused.load(ordering: .relaxed) }

    /// Writes the pack: this run's entries and the earlier ones used recently; then trims the
    /// directory to its size limit. A run that found every result in the pack leaves it as it
    /// is (nothing ages while nothing changes).
    package func save() throws(InputError) {
        guard recorded.load(ordering: .relaxed) || previous.isEmpty else {
            // Used, not changed: only its time moves, so eviction sees it in use.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: packPath)
            return
        }
        var entries = previous.filter { $0.value.run > run - Self.keptRuns }
        entries.merge(current.withLock { $0 }) { _, new in new }
        let pack = Pack(
            format: Self.format, toolVersion: toolVersion, root: root, run: run, entries: entries)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(
                path: directory, message: "cannot create the cache directory: \(error.localizedDescription)")
        }
        // AtomicFile writes into a device or FIFO in place (`--output /dev/null`); a pack is only
        // ever a regular file, and writing into a FIFO nobody reads would never return.
        if let kind = FileKind.of(packPath), kind != .regular {
            throw InputError(path: packPath, message: "not a regular file (\(kind.rawValue)); the cache is not written")
        }
        guard let bytes = try? CompactCoder.encode(pack) else {
            throw InputError(path: packPath, message: "cannot encode the cache")
        }
        try AtomicFile.write(bytes, to: packPath)
        trimDirectory()
    }

    /// Removes the packs least recently used until the directory is within its size limit, and what
    /// a write cut short by a crash left (a temporary file an hour old: one being written now is
    /// seconds old).
    private func trimDirectory() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".results-") && name.contains(".pack.tmp-") {
            let path = directory + "/" + name
            if let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified.timeIntervalSinceNow < -3600
            {
                try? manager.removeItem(atPath: path)
            }
        }
        var packs = names.filter { $0.hasPrefix("results-") && $0.hasSuffix(".pack") }.compactMap {
            name -> (path: String, size: Int, modified: Date)? in
            let path = directory + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            return (path, size, modified)
        }
        var total = packs.reduce(0) { $0 + $1.size }
        packs.sort { $0.modified < $1.modified }
        for pack in packs where total > sizeLimit && pack.path != packPath {
            if (try? manager.removeItem(atPath: pack.path)) != nil { total -= pack.size }
        }
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
