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
/// The pack also holds each file's key (`FileKey`: git's stat data) and content hash as the
/// last run that read it saw them, so an unchanged file is handed to the checks by its hash
/// without being opened (`ResultStore.unchangedContentHash`), git's racy-entry rule applying.
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
    /// What earlier runs left (an empty pack when there is none to trust).
    private let previous: ResultPack
    /// When this run began.
    private let readAt: Double
    private var run: Int { previous.run + 1 }
    /// What this run used of the pack, by key and by path (`Hasher` values: a collision only
    /// drops a file key, and the file is read again).
    private let used = Mutex(Used())
    /// Where this run's pack goes, record by record as results are made.
    private let output = Mutex(PackOutput())
    private let reused = Atomic<Int>(0)
    /// Whether this run recorded a result or a file key the pack did not hold.
    private let recorded = Atomic<Bool>(false)

    private struct Used {
        var entries: Set<ResultKey> = []
        /// Files found unchanged (their key carried over) and files read (their key written).
        var unchangedPaths: Set<Int> = []
        var readPaths: Set<Int> = []
    }

    private struct PackOutput {
        /// Made by the first record; nil before, and when it could not be made (`failure`).
        var writer: AtomicFile.Writer?
        var failure: InputError?
        var started = false
    }

    /// How many runs an entry stays unused (a branch switched back to still finds its files).
    static let keptRuns = 8
    /// The default bound on the directory's size: packs least recently used beyond it are removed.
    package static let defaultSizeLimit = 512 * 1024 * 1024
    private let sizeLimit: Int

    /// The cache of the results for `roots` in `directory`, as left by earlier runs of this version.
    package init(directory: String, roots: [String], toolVersion: String, sizeLimit: Int = defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        let absoluteRoot = roots.map(Self.absolute).sorted().joined(separator: "\n")
        packPath = directory + "/results-" + String(StableHash.hex128(absoluteRoot).prefix(16)) + ".pack"
        // Taken before any file is read: a file modified less than a second before it may
        // change again unseen within its timestamp's tick (`FileKey.isRacy`).
        let readAt = Date().timeIntervalSince1970
        // Read as any input is: a FIFO or device put there never blocks the run, and a pack past
        // the size limit is no pack.
        let pack = (try? SafeFileReader.read(packPath, sizeLimit: sizeLimit)).flatMap { try? ResultPack(decoding: $0) }
        if let pack, pack.toolVersion == toolVersion, pack.root == absoluteRoot, pack.run < Int.max {
            previous = pack
        } else {
            previous = ResultPack(toolVersion: toolVersion, root: absoluteRoot, run: 0, readAt: readAt)
        }
        self.readAt = readAt
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
    package func value<Value: Decodable>(_ type: Value.Type, for key: ResultKey) -> Value? {
        guard let entry = previous.entries[key], entry.isIntact(under: key),
            let value = try? CompactCoder.decode(type, from: entry.value)
        else { return nil }
        used.withLock { _ = $0.entries.insert(key) }
        reused.add(1, ordering: .relaxed)
        return value
    }

    /// Stores `value` under `key` for the next runs: encoded on the thread that made it and
    /// written out with the pack, not kept.
    package func record(_ value: some Encodable, for key: ResultKey) {
        guard let bytes = try? CompactCoder.encode(value) else { return }
        write(
            ResultPack.entryRecord(
                key, run: run, value: bytes[...], checksum: ResultPack.checksum(bytes[...], key: key)))
        recorded.store(true, ordering: .relaxed)
    }

    package var knowsFileKeys: Bool { !previous.files.isEmpty }

    package func unchangedContentHash(path: String, key: FileKey) -> String? {
        guard let file = previous.files[path], file.key == key, !key.isRacy(readAt: previous.readAt) else { return nil }
        used.withLock { _ = $0.unchangedPaths.insert(path.hashValue) }
        return file.contentHash
    }

    package func recordRead(path: String, key: FileKey, contentHash: String) {
        used.withLock { _ = $0.readPaths.insert(path.hashValue) }
        write(ResultPack.fileRecord(path, ResultPack.FileRecord(run: run, key: key, contentHash: contentHash)))
        // A racy key read again is written again: against this run's start it may no longer be.
        let known = previous.files[path]
        if known?.key != key || known?.contentHash != contentHash || key.isRacy(readAt: previous.readAt) {
            recorded.store(true, ordering: .relaxed)
        }
    }

    /// Appends a record to this run's pack, making it (and the cache directory) first.
    private func write(_ record: [UInt8]) {
        output.withLock { output in
            if !output.started {
                output.started = true
                do throws(InputError) {
                    let writer = try openPack()
                    writer.output.write(
                        ResultPack(
                            toolVersion: previous.toolVersion, root: previous.root, run: run, readAt: readAt
                        ).header)
                    output.writer = writer
                } catch {
                    output.failure = error
                }
            }
            output.writer?.output.write(record)
        }
    }

    /// The writer of this run's pack, in the cache directory, which it makes when missing.
    private func openPack() throws(InputError) -> AtomicFile.Writer {
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
        return try AtomicFile.Writer(path: packPath)
    }

    /// How many results this run took from the cache.
    package var reusedCount: Int { reused.load(ordering: .relaxed) }

    /// Completes the pack: after what this run made, the earlier entries and file keys used
    /// recently; then trims the directory to its size limit. A run that found every result and
    /// file in the pack leaves it as it is (nothing ages while nothing changes).
    package func save() throws(InputError) {
        guard recorded.load(ordering: .relaxed) || previous.entries.isEmpty else {
            output.withLock { $0.writer = nil }  // the records of files read again, unchanged
            // Used, not changed: only its time moves, so eviction sees it in use.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: packPath)
            return
        }
        write([])  // makes the pack when this run recorded nothing (a tree with no file to check)
        let used = used.withLock { $0 }
        try output.withLock { output throws(InputError) in
            if let failure = output.failure { throw failure }
            guard let writer = output.writer else { return }
            carryRecords(used: used, to: writer.output)
            writer.output.write(ResultPack.endRecord)
            output.writer = nil
            try writer.commit()
        }
        trimDirectory()
    }

    /// Writes what earlier runs left that stays: entries this run used (now of this run) or
    /// used within `keptRuns` runs; file keys this run found unchanged, or did not see but saw
    /// within as many runs, unless that read was racy (the next run judges keys against this
    /// run's start, which it was not taken before). File keys this run read are its own.
    private func carryRecords(used: Used, to output: ByteOutput) {
        let oldest = run - Self.keptRuns
        for (key, entry) in previous.entries {
            let isUsed = used.entries.contains(key)
            guard isUsed || entry.run > oldest else { continue }
            output.write(
                ResultPack.entryRecord(key, run: isUsed ? run : entry.run, value: entry.value, checksum: entry.checksum)
            )
        }
        for (path, file) in previous.files where !used.readPaths.contains(path.hashValue) {
            if used.unchangedPaths.contains(path.hashValue) {
                var carried = file
                carried.run = run
                output.write(ResultPack.fileRecord(path, carried))
            } else if file.run > oldest, !file.key.isRacy(readAt: previous.readAt) {
                output.write(ResultPack.fileRecord(path, file))
            }
        }
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
