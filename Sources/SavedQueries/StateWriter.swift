import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A query's new state as a run makes it (`StateFileFormat`): the blocks of files that changed
/// go to one new segment as files come, in listing order; an unchanged file's line points at
/// its block where it already is. `commit` syncs the segment, replaces the manifest
/// atomically and deletes the segments no longer referenced. A writer `discard`ed (a run the
/// timeout cut short), or dropped without `commit`, deletes its segment and leaves the previous
/// state as it was.
///
/// The scan's thread adds the files, then another commits (beside the other queries' writers):
/// the state is behind a lock, uncontended, which makes that hand-over one the compiler checks.
final class StateWriter: Sendable {
    /// Segments a state may span before a commit copies the live blocks into the new one.
    static let maximumSegments = 8

    private let state: Mutex<State>

    /// `previous`: the state whose blocks unchanged files keep (nil when there is none to keep).
    init(manifest: String, query: SavedQuery, ranAt: Double, previous: PreviousState?) {
        state = Mutex(State(manifest: manifest, query: query, ranAt: ranAt, previous: previous))
    }

    deinit { discard() }

    /// Deletes the segment of a state that is not committed: at once, not whenever the last
    /// reference goes (the thread that committed the other queries may hold one a while).
    func discard() { state.withLock { $0.discard() } }

    /// One file's matches (files come in listing order).
    func add(_ file: FileRefresh) { state.withLock { $0.add(file) } }

    /// Puts the new state in place: segment synced, manifest replaced, segments nothing
    /// references any more deleted — under the state's lock, so two runs of one query never
    /// leave a manifest that names a deleted segment.
    func commit() throws(InputError) {
        try state.withLock { (state) throws(InputError) in try state.commit() }
    }
}

/// What a `StateWriter` has written so far, and how.
private struct State {
    private let manifest: String
    private let header: StateFileFormat.Header
    private let previous: PreviousState?
    /// In listing order; `reused` is the previous run's file whose block is kept (its
    /// `segment` is then the previous state's), else the block is in the new segment.
    private var blocks: [(file: StateFileFormat.FileBlock, reused: Int?)] = []
    private var segment: Segment?
    private var failure: InputError?
    private var committed = false

    private final class Segment {
        let name: String
        let path: String
        let descriptor: Int32
        let output: ByteOutput
        var size = 0

        init(name: String, path: String, descriptor: Int32) {
            self.name = name
            self.path = path
            self.descriptor = descriptor
            output = ByteOutput(descriptor: descriptor, displayPath: path, closesDescriptor: true)
        }
    }

    init(manifest: String, query: SavedQuery, ranAt: Double, previous: PreviousState?) {
        self.manifest = manifest
        header = StateFileFormat.Header(name: query.name, signature: query.definitionSignature, ranAt: ranAt)
        self.previous = previous
    }

    mutating func discard() {
        guard !committed, let segment else { return }
        SystemCalls.removeFile(segment.path)
        self.segment = nil
    }

    mutating func add(_ file: FileRefresh) {
        if file.keepsPreviousBlock, let index = file.previousFile, let previous,
            StateFileFormat.isSegmentName(previous.segmentNames[previous.files[index].segment])
        {
            var block = previous.files[index]
            block.key = file.key
            blocks.append((block, index))
            return
        }
        guard let segment = openSegment() else { return }
        blocks.append(
            (
                StateFileFormat.FileBlock(
                    segment: -1, offset: segment.size, length: file.state.count, matchCount: file.matchCount,
                    key: file.key,
                    path: file.path), nil
            ))
        segment.output.write(file.state)
        segment.size += file.state.count
    }

    /// The new segment, made on the first block that needs it (a run where no file changed
    /// writes none). Made under the state's lock and held with a shared `flock` until the
    /// writer is done, so another run's cleanup does not take it for a crash's leftover.
    private mutating func openSegment() -> Segment? {
        if let segment { return segment }
        guard failure == nil else { return nil }
        do {
            try createFolders()
            try FileLock.withLock(at: QueryState.lockPath(manifest)) { () throws -> Void in try makeSegment() }
        } catch let error as InputError {
            failure = error
        } catch {
            failure = InputError(path: manifest, message: "cannot lock the query state")
        }
        return segment
    }

    /// The state's folder and its segment folder.
    private func createFolders() throws(InputError) {
        let folder = QueryState.segmentFolder(manifest)
        // There after the first run: one lstat instead of FileManager's walk up the path.
        guard FileKind.of(folder) != .directory else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InputError(path: folder, message: "cannot create the query state folder")
        }
    }

    /// Makes the new segment under a fresh random name (the lock held).
    private mutating func makeSegment() throws(InputError) {
        let folder = QueryState.segmentFolder(manifest)
        while segment == nil {
            let digits = String(repeating: "0", count: 16) + String(UInt64.random(in: .min ... .max), radix: 16)
            let name = String(digits.suffix(16)) + ".seg"
            let path = folder + "/" + name
            let descriptor = SystemCalls.openFile(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
            if descriptor < 0 && errno == EEXIST { continue }
            guard descriptor >= 0 else {
                throw InputError(path: path, message: "cannot create: \(SafeFileReader.describe(errno: errno))")
            }
            _ = flock(descriptor, LOCK_SH)
            segment = Segment(name: name, path: path, descriptor: descriptor)
        }
    }

    mutating func commit() throws(InputError) {
        if let failure { throw failure }
        try createFolders()
        do {
            try FileLock.withLock(at: QueryState.lockPath(manifest)) { () throws -> Void in try commitLocked() }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: manifest, message: "cannot write the query state")
        }
    }

    private mutating func commitLocked() throws(InputError) {
        let folder = QueryState.segmentFolder(manifest)
        var kept = Set<Int>()
        var liveBytes = 0
        for block in blocks where block.reused != nil {
            kept.insert(block.file.segment)
            liveBytes += block.file.length
        }
        if let previous, !kept.isEmpty {
            // Compact when the kept segments are mostly garbage, too many, or one is gone (a
            // run of the same query committed in between and deleted it: its blocks are still
            // readable through the descriptor held open).
            let keptBytes = kept.reduce(0) { $0 + previous.segmentSizes[$1] }
            let missing = kept.contains { !previous.segmentIsInPlace($0, folder: folder) }
            if missing || liveBytes * 2 < keptBytes
                || kept.count + (segment == nil ? 0 : 1) > StateWriter.maximumSegments
            {
                try copyKeptBlocks(previous)
                kept = []
            }
        }
        var names: [String] = []
        var position: [Int: Int] = [:]
        for old in kept.sorted() {
            position[old] = names.count
            names.append(previous!.segmentNames[old])
        }
        if let segment {
            try segment.output.flush()
            guard DurableSync.sync(segment.descriptor) == 0 else {
                throw InputError(path: segment.path, message: "cannot sync: \(SafeFileReader.describe(errno: errno))")
            }
            position[-1] = names.count
            names.append(segment.name)
        }
        var header = header
        header.format = StateFileFormat.version
        header.segments = names
        header.matchCount = blocks.reduce(0) { $0 + $1.file.matchCount }
        header.fileCount = blocks.count
        guard var bytes = StateFileFormat.encode(header) else {
            throw InputError(path: manifest, message: "cannot encode the query state")
        }
        // A line is about a hundred bytes: one allocation, not a doubling every few hundred lines.
        bytes.reserveCapacity(bytes.count + 128 * blocks.count)
        for (block, reused) in blocks {
            var line = block
            line.segment = position[reused == nil ? -1 : block.segment]!
            StateFileFormat.encode(line, into: &bytes)
        }
        try AtomicFile.write(bytes, to: manifest)
        committed = true
        segment = nil
        Self.deleteSegments(in: folder, except: Set(names))
    }

    /// Copies every kept block into the new segment (made if need be).
    private mutating func copyKeptBlocks(_ previous: PreviousState) throws(InputError) {
        for index in blocks.indices {
            guard let reused = blocks[index].reused else { continue }
            guard let bytes = previous.block(reused) else {
                throw InputError(path: manifest, message: "cannot read a block of the previous state")
            }
            if segment == nil { try makeSegment() }
            guard let segment else { return }
            blocks[index].file.segment = -1
            blocks[index].file.offset = segment.size
            blocks[index].reused = nil
            segment.output.write(bytes)
            segment.size += bytes.count
        }
    }

    /// Deletes the files of `folder` not in `kept`: segments the new manifest no longer
    /// references and a crashed run's leftovers — not a segment another run is still writing
    /// (it holds a lock on it).
    private static func deleteSegments(in folder: String, except kept: Set<String>) {
        guard let entries = FileEnumerator.entryNames(of: Array(folder.utf8)) else { return }
        for name in entries.map({ String(decoding: $0, as: UTF8.self) }) where !kept.contains(name) {
            let path = folder + "/" + name
            let descriptor = SystemCalls.openFile(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { SystemCalls.removeFile(path) }
            close(descriptor)
        }
    }
}
