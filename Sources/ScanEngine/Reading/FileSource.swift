import Synchronization

/// Where a scan's files come from: listed once, each read on request. `ScanPipeline` asks for
/// the listing once and for each file's bytes once; a test can wrap it to count both.
package protocol FileSource: Sendable {
    /// The files under `root` that `scope`'s include / exclude globs leave in.
    func enumerate(root: String, scope: ScanScope, checksListedKinds: Bool) -> FileEnumeration

    /// `enumerate`, handing the files to `deliver` in listing order as they become known (see
    /// `FileEnumerator.enumerate(delivering:)`); by default all at once at the end.
    func enumerate(
        root: String, scope: ScanScope, checksListedKinds: Bool,
        delivering deliver: (ArraySlice<ScannedFile>) -> Void
    ) -> FileEnumeration

    /// Calls `body` with the file's bytes, valid only during the call, and its key when the
    /// source has one (a file on disk; not a git blob or bytes kept in memory).
    func withContents<T>(
        _ path: String, displayPath: String, sizeLimit: Int, _ body: (borrowing ByteView, FileKey?) -> T
    ) throws(InputError) -> T

    /// The file's bytes as an array, for what must outlive the read.
    func read(_ path: String, displayPath: String, sizeLimit: Int) throws(InputError) -> [UInt8]

    /// Opens the file for a reader that holds it beyond one call in its own way (an artifact
    /// reader mapping a library or reading a zip in place): `open` opens it, called through the
    /// source so that every open of a scan passes one place (a test counts them).
    func opening<T>(_ path: String, _ open: (String) throws(InputError) -> T) throws(InputError) -> T
}

extension FileSource {
    package func enumerate(
        root: String, scope: ScanScope, checksListedKinds: Bool,
        delivering deliver: (ArraySlice<ScannedFile>) -> Void
    ) -> FileEnumeration {
        let enumeration = enumerate(root: root, scope: scope, checksListedKinds: checksListedKinds)
        deliver(enumeration.files[...])
        return enumeration
    }

    package func read(_ path: String, displayPath: String, sizeLimit: Int) throws(InputError) -> [UInt8] {
        try withContents(path, displayPath: displayPath, sizeLimit: sizeLimit) { bytes, _ in bytes.array() }
    }

    package func opening<T>(_ path: String, _ open: (String) throws(InputError) -> T) throws(InputError) -> T {
        try open(path)
    }
}

/// A source that opens each file at most once in a run: what is read whole before the scan
/// (the configuration, the query store, a baseline, an included `.xcconfig`) is kept and
/// handed to the scan's read pass instead of being opened again.
package final class ReadOnceFileSource: FileSource {
    private let base: any FileSource
    private let kept = Mutex<[String: [UInt8]]>([:])

    package init(_ base: any FileSource = DiskFileSource()) { self.base = base }

    package func enumerate(root: String, scope: ScanScope, checksListedKinds: Bool) -> FileEnumeration {
        base.enumerate(root: root, scope: scope, checksListedKinds: checksListedKinds)
    }

    package func enumerate(
        root: String, scope: ScanScope, checksListedKinds: Bool,
        delivering deliver: (ArraySlice<ScannedFile>) -> Void
    ) -> FileEnumeration {
        base.enumerate(
            root: root, scope: scope, checksListedKinds: checksListedKinds, delivering: deliver)
    }

    package func read(_ path: String, displayPath: String, sizeLimit: Int) throws(InputError) -> [UInt8] {
        let key = Self.key(path)
        if let bytes = kept.withLock({ $0[key] }) { return bytes }
        let bytes = try base.read(path, displayPath: displayPath, sizeLimit: sizeLimit)
        kept.withLock { $0[key] = bytes }
        return bytes
    }

    package func withContents<T>(
        _ path: String, displayPath: String, sizeLimit: Int, _ body: (borrowing ByteView, FileKey?) -> T
    ) throws(InputError) -> T {
        if let bytes = kept.withLock({ $0[Self.key(path)] }) {
            guard bytes.count <= sizeLimit else {
                throw InputError.tooLarge(displayPath, size: bytes.count, limit: sizeLimit)
            }
            return bytes.withByteView { body($0, nil) }
        }
        return try base.withContents(path, displayPath: displayPath, sizeLimit: sizeLimit, body)
    }

    package func opening<T>(_ path: String, _ open: (String) throws(InputError) -> T) throws(InputError) -> T {
        try base.opening(path, open)
    }

    /// `./a//b` and `a/b` are one file. Asked for every file of a scan: a path with nothing to
    /// fold (what the listing gives) is its own key.
    private static func key(_ path: String) -> String {
        guard
            path.hasPrefix("./") || path.hasSuffix("/") || path.hasSuffix("/.") || path.contains("//")
                || path.contains("/./")
        else {
            return path
        }
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(
            separator: "/")
        if path.hasPrefix("/") { parts = "/" + parts }
        return parts
    }
}

/// The file system: git's view (or a walk) through `FileEnumerator`, reads through
/// `SafeFileReader` into a per-thread buffer.
package struct DiskFileSource: FileSource {
    /// Whether git's view includes untracked files that are not ignored (`FileEnumerator.listsUntracked`).
    package let listsUntracked: Bool
    /// git's listing of the root to be scanned, started ahead (see `GitListing`).
    package let startedListing: GitListing?
    /// Whether the untracked files of a listing started ahead come after the others, in
    /// `FileEnumeration.later` (`FileEnumerator.defersUntracked`).
    package let defersUntracked: Bool

    package init(listsUntracked: Bool = true, startedListing: GitListing? = nil, defersUntracked: Bool = false) {
        self.listsUntracked = listsUntracked
        self.startedListing = startedListing
        self.defersUntracked = defersUntracked
    }

    package func enumerate(root: String, scope: ScanScope, checksListedKinds: Bool) -> FileEnumeration {
        enumerate(root: root, scope: scope, checksListedKinds: checksListedKinds, delivering: { _ in })
    }

    package func enumerate(
        root: String, scope: ScanScope, checksListedKinds: Bool,
        delivering deliver: (ArraySlice<ScannedFile>) -> Void
    ) -> FileEnumeration {
        FileEnumerator(
            root: root, scope: scope, checksGitListedKinds: checksListedKinds,
            listsUntracked: listsUntracked,
            startedListing: startedListing, defersUntracked: defersUntracked
        ).enumerate(delivering: deliver)
    }

    package func withContents<T>(
        _ path: String, displayPath: String, sizeLimit: Int, _ body: (borrowing ByteView, FileKey?) -> T
    ) throws(InputError) -> T {
        try SafeFileReader.withContents(path, displayPath: displayPath, sizeLimit: sizeLimit) { bytes, key in
            body(ByteView(unsafeBytes: bytes), key)
        }
    }
}
