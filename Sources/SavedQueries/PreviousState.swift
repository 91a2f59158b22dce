import ScanEngine
import ShipcheckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A query's previous run as the next run compares with it: the manifest's blocks by path, and
/// the segments they are in held open (a concurrent run that deletes one cannot take a block
/// away mid-run). A block is read only for a file that changed or is gone (see
/// `StateFileFormat`).
package final class PreviousState: Sendable {
    package let name: String
    /// `SavedQuery.definitionSignature` of the query that produced this state.
    package let signature: String
    /// When the previous run started (seconds since 1970): the time its file keys were read.
    package let ranAt: Double
    package let matchCount: Int
    let files: [StateFileFormat.FileBlock]
    private let fileIndex: [PathDigest: Int]
    /// The segment files (`StateWriter` keeps those still referenced by name).
    let segmentNames: [String]
    let segmentSizes: [Int]
    private let segments: [Int32]

    /// What `load` found.
    package enum Load: Sendable {
        case absent
        /// A state that cannot be read, and why: the run goes on without a comparison.
        case unreadable(String)
        case loaded(PreviousState)

        package var state: PreviousState? {
            if case .loaded(let state) = self { state } else { nil }
        }
    }

    private init(
        header: StateFileFormat.Header, files: [StateFileFormat.FileBlock], fileIndex: [PathDigest: Int],
        segmentNames: [String],
        segmentSizes: [Int], segments: [Int32]
    ) {
        name = header.name
        signature = header.signature
        ranAt = header.ranAt
        matchCount = files.reduce(0) { $0 + $1.matchCount }
        self.files = files
        self.fileIndex = fileIndex
        self.segmentNames = segmentNames
        self.segmentSizes = segmentSizes
        self.segments = segments
    }

    deinit {
        for descriptor in segments { close(descriptor) }
    }

    /// The state at `manifest` (`QueryState.path`): format 2, or format 1 read as one segment.
    package static func load(manifest: String) -> Load {
        guard FileKind.of(manifest) != nil else { return .absent }
        guard let (descriptor, size) = openRegular(manifest) else { return .unreadable("cannot open \(manifest)") }
        guard let first = firstLine(descriptor), let header = StateFileFormat.decodeHeader(first) else {
            close(descriptor)
            return .unreadable("no header in \(manifest)")
        }
        guard let format = header.format else {
            return formatOne(header: header, descriptor: descriptor, size: size, from: first.count + 1, name: manifest)
        }
        let bytes = read(descriptor, offset: 0, length: size)
        close(descriptor)
        guard format == StateFileFormat.version else {
            return .unreadable("\(manifest) has format \(format), not \(StateFileFormat.version)")
        }
        guard let bytes else { return .unreadable("cannot read \(manifest)") }
        return formatTwo(header: header, bytes: bytes, manifest: manifest)
    }

    /// The first line of a file (without its newline), read in small steps: a format 1 state
    /// is all one file.
    static func firstLine(_ descriptor: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        while line.count < 1024 * 1024 {
            guard let chunk = SafeFileReader.readAvailable(descriptor, offset: line.count, length: 64 * 1024) else {
                return nil
            }
            if chunk.isEmpty { return line }
            if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) { return line + chunk[..<newline] }
            line += chunk
        }
        return nil
    }

    private static func formatTwo(header: StateFileFormat.Header, bytes: [UInt8], manifest: String) -> Load {
        var segments: [Int32] = []
        var sizes: [Int] = []
        let names = header.segments ?? []
        for name in names {
            guard StateFileFormat.isSegmentName(name),
                let (descriptor, size) = openRegular(QueryState.segmentFolder(manifest) + "/" + name)
            else {
                for descriptor in segments { close(descriptor) }
                return .unreadable("segment \(name) of \(manifest) is missing")
            }
            segments.append(descriptor)
            sizes.append(size)
        }
        var files: [StateFileFormat.FileBlock] = []
        var index: [PathDigest: Int] = [:]
        // Room for the lines the header counts (no rehashing as the table grows), but no more
        // than the manifest's bytes could hold: a damaged count reserves nothing absurd.
        let expected = max(0, min(header.fileCount ?? 0, bytes.count / 16))
        files.reserveCapacity(expected)
        index.reserveCapacity(expected)
        var problem: String?
        _ = bytes.withByteView { buffer in
            StateFileFormat.forEachLine(buffer) { line, offset in
                guard offset > 0 else { return true }  // the header
                guard let block = StateFileFormat.decodeBlock(line) else {
                    problem = "a damaged line in \(manifest)"
                    return false
                }
                // Each match is a line of its block: no more matches than bytes (so the counts
                // summed below stay within the segments' sizes).
                guard block.segment >= 0, block.segment < sizes.count, block.offset >= 0, block.length > 0,
                    block.matchCount > 0,
                    block.matchCount <= block.length, block.offset <= sizes[block.segment] - block.length
                else {
                    problem = "a block of \(block.path) outside its segment in \(manifest)"
                    return false
                }
                guard index.updateValue(files.count, forKey: PathDigest(block.path)) == nil else {
                    problem = "\(block.path) twice in \(manifest)"
                    return false
                }
                files.append(block)
                return true
            }
        }
        if problem == nil,
            header.matchCount != files.reduce(0, { $0 + $1.matchCount }) || header.fileCount != files.count
        {
            problem = "lines missing from \(manifest)"
        }
        if let problem {
            for descriptor in segments { close(descriptor) }
            return .unreadable(problem)
        }
        return .loaded(
            PreviousState(
                header: header, files: files, fileIndex: index, segmentNames: names, segmentSizes: sizes,
                segments: segments))
    }

    /// A format 1 state: each path's run of entry lines is a block of the file itself (segment
    /// 0, kept open so what is gone can be read after the new manifest replaced it), with no
    /// key, so every file counts as changed. Read a chunk at a time: it holds every match.
    private static func formatOne(
        header: StateFileFormat.Header, descriptor: Int32, size: Int, from start: Int, name: String
    ) -> Load {
        var files: [StateFileFormat.FileBlock] = []
        var index: [PathDigest: Int] = [:]
        var current: (path: [UInt8], offset: Int, end: Int, count: Int)?
        func finish() -> Bool {
            guard let run = current else { return true }
            let path = StateFileFormat.unescape(run.path)
            guard index.updateValue(files.count, forKey: PathDigest(path)) == nil else { return false }
            files.append(
                StateFileFormat.FileBlock(
                    segment: 0, offset: run.offset, length: run.end - run.offset, matchCount: run.count, key: nil,
                    path: path))
            return true
        }
        var position = start
        var chunkSize = 1024 * 1024
        var problem: String?
        while position < size, problem == nil {
            guard
                let chunk = SafeFileReader.readAvailable(
                    descriptor, offset: position, length: min(chunkSize, size - position)),
                !chunk.isEmpty
            else {
                problem = "cannot read \(name)"
                break
            }
            // Whole lines only; the last one, cut by the chunk's end, is read again with the next.
            let atEnd = position + chunk.count >= size
            guard let usable = atEnd ? chunk.count : chunk.lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 }) else {
                chunkSize *= 2
                continue
            }
            let complete = chunk.withByteView { buffer in
                buffer.withSlice(0..<usable) { usableLines in
                    StateFileFormat.forEachLine(usableLines) { line, offset in
                        guard StateFileFormat.fingerprint(ofEntry: line) != nil,
                            let path = StateFileFormat.escapedPath(ofEntry: line)
                        else { return false }
                        let lineStart = position + offset, end = min(size, lineStart + line.count + 1)
                        if let run = current, line.matches(run.path, at: path.lowerBound),
                            run.path.count == path.count
                        {
                            current?.end = end
                            current?.count += 1
                            return true
                        }
                        guard finish() else { return false }
                        current = (line.array(path), lineStart, end, 1)
                        return true
                    }
                }
            }
            if !complete { problem = "a damaged line in \(name)" }
            position += usable
        }
        if problem == nil, !finish() { problem = "entries of one file apart in \(name)" }
        if let problem {
            close(descriptor)
            return .unreadable(problem)
        }
        return .loaded(
            PreviousState(
                header: header, files: files, fileIndex: index, segmentNames: [""], segmentSizes: [size],
                segments: [descriptor]))
    }

    /// The index of the path with `digest` among the previous run's files with matches, or nil.
    func file(at digest: PathDigest) -> Int? { fileIndex[digest] }

    /// Whether file `index` is as the previous run read it: the same key, not taken in the
    /// second before that run started (a write in the same tick keeps the key), and as many
    /// matches.
    func isUnchanged(_ index: Int, key: FileKey?, matchCount: Int) -> Bool {
        let stored = files[index]
        guard let key, stored.key == key, stored.matchCount == matchCount else { return false }
        return !key.isRacy(readAt: ranAt)
    }

    /// The bytes of file `index`'s block, or nil when its segment cannot be read.
    func block(_ index: Int) -> [UInt8]? {
        let file = files[index]
        return Self.read(segments[file.segment], offset: file.offset, length: file.length)
    }

    /// The entries of file `index`'s block, or nil when it cannot be read.
    func entries(_ index: Int) -> [QueryState.Entry]? {
        guard let block = block(index) else { return nil }
        var entries: [QueryState.Entry] = []
        let complete = block.withByteView { buffer in
            StateFileFormat.forEachLine(buffer) { line, _ in
                guard let entry = StateFileFormat.decodeEntry(line.array()) else { return false }
                entries.append(entry)
                return true
            }
        }
        return complete ? entries : nil
    }

    /// Opens a regular file of the state for reading: its descriptor and size.
    private static func openRegular(_ path: String) -> (Int32, Int)? {
        guard let (descriptor, key) = try? SafeFileReader.openRegularFile(path, shown: path, sizeLimit: .max) else {
            return nil
        }
        return (descriptor, Int(key.size))
    }

    /// `length` bytes at `offset`, or nil when fewer are there.
    static func read(_ descriptor: Int32, offset: Int, length: Int) -> [UInt8]? {
        guard let bytes = SafeFileReader.readAvailable(descriptor, offset: offset, length: length),
            bytes.count == length
        else {
            return nil
        }
        return bytes
    }
}

extension PreviousState {
    /// Whether segment `index` is still the file of that name in `folder` (not deleted or
    /// replaced since this state was loaded).
    func segmentIsInPlace(_ index: Int, folder: String) -> Bool {
        SafeFileReader.isSameFile(folder + "/" + segmentNames[index], as: segments[index])
    }
}

/// A path as a run looks it up among the previous runs' files: 128 bits of Swift's seeded
/// hash (SipHash) of its bytes, worked out once per file of the run and used by every query.
/// (A `[String: Int]` hashed the path and compared it with a stored string once per query and
/// file, mostly missing the cache on the stored strings: see docs/performance.md, "Path
/// digests for the previous run's files".) Two paths
/// share a digest with a chance of about 2⁻¹²⁸ per pair: as with match fingerprints, equal
/// digests are taken for equal paths.
package struct PathDigest: Hashable, Sendable {
    private let first: Int
    private let second: Int

    package init(_ path: String) {
        var first = Hasher(), second = Hasher()
        // Another first byte: an independent 64 bits under the process's SipHash key.
        second.combine(UInt8(0x1F))
        path.withByteView { bytes in
            bytes.hash(into: &first)
            bytes.hash(into: &second)
        }
        self.first = first.finalize()
        self.second = second.finalize()
    }

    /// Already a hash: a table needs no more than one of its halves.
    package func hash(into hasher: inout Hasher) { hasher.combine(first) }
}
