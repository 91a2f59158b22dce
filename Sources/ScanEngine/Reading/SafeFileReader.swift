import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files without ever blocking on a FIFO or device, following a symlink, or
/// reading past a size cap. Every failure is an `InputError` naming the file.
package enum SafeFileReader {
    /// Default cap for text scanning: generous, but bounded so one file cannot exhaust memory.
    package static let defaultSizeLimit = 256 * 1024 * 1024

    package static func read(_ path: String, displayPath: String? = nil, sizeLimit: Int = defaultSizeLimit)
        throws(InputError) -> [UInt8]
    {
        let shown = displayPath ?? path
        let (descriptor, key) = try openRegularFile(path, shown: shown, sizeLimit: sizeLimit)
        let size = Int(key.size)
        defer { close(descriptor) }
        // Read straight into uninitialised storage: zero-filling first would touch every page twice.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            (initialized, failure) = fill(descriptor, UnsafeMutableRawPointer(buffer.baseAddress), size: size)
        }
        if failure != 0 { throw InputError(path: shown, message: describe(errno: failure)) }
        return bytes
    }

    /// Calls `body` with the file's bytes held in a buffer the calling thread reuses from file to
    /// file: the hot loops of the text scanners read tens of thousands of files, and a fresh
    /// allocation per file costs a page fault and a kernel zero-fill per page. The buffer is
    /// valid only during `body`; copy out what must outlive it. `body` also gets the file's key
    /// from the same `fstat`.
    package static func withContents<T>(
        _ path: String, displayPath: String? = nil, sizeLimit: Int = defaultSizeLimit,
        _ body: (UnsafeRawBufferPointer, FileKey) -> T
    ) throws(InputError) -> T {
        let shown = displayPath ?? path
        let (descriptor, key) = try openRegularFile(path, shown: shown, sizeLimit: sizeLimit)
        let size = Int(key.size)
        defer { close(descriptor) }
        let buffer = ThreadReadBuffer.current
        let storage = buffer.reserve(size)
        let (filled, failure) = fill(descriptor, storage, size: size)
        if failure != 0 { throw InputError(path: shown, message: describe(errno: failure)) }
        defer { buffer.shrinkIfLarge() }
        return body(UnsafeRawBufferPointer(start: storage, count: filled), key)
    }

    /// Up to `length` bytes at `offset` of an open file (fewer at its end), or nil when a read
    /// fails (pread, so readers of one descriptor do not share a position).
    package static func readAvailable(_ descriptor: Int32, offset: Int, length: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var filled = 0
            while filled < length {
                let count = pread(descriptor, buffer.baseAddress! + filled, length - filled, off_t(offset + filled))
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failed = true }
                if count <= 0 { break }
                filled += count
            }
            initialized = filled
        }
        return failed ? nil : bytes
    }

    /// Whether `path` still names the file open as `descriptor` (not deleted or replaced).
    package static func isSameFile(_ path: String, as descriptor: Int32) -> Bool {
        var named = stat(), held = stat()
        guard stat(path, &named) == 0, fstat(descriptor, &held) == 0 else { return false }
        return named.st_dev == held.st_dev && named.st_ino == held.st_ino
    }

    /// Opens `path` for reading if it is a regular file within the cap (without following a
    /// symlink or blocking on a FIFO): its descriptor, which the caller closes, and its key.
    package static func openRegularFile(_ path: String, shown: String, sizeLimit: Int = defaultSizeLimit)
        throws(InputError) -> (descriptor: Int32, key: FileKey)
    {
        // O_NONBLOCK: opening a FIFO with no writer must not hang. O_NOFOLLOW: the walk
        // already decided about symlinks; a swapped-in link is refused, not followed.
        let descriptor = OpenDirectory.current.open(path, flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: shown, message: describe(errno: errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw InputError(path: shown, message: describe(errno: code))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw InputError(path: shown, message: "not a regular file (\(FileKind(mode: status.st_mode)))")
        }
        let size = Int(status.st_size)
        guard size <= sizeLimit else {
            close(descriptor)
            throw InputError.tooLarge(shown, size: size, limit: sizeLimit)
        }
        return (descriptor, FileKey(status))
    }

    /// Reads up to `size` bytes; returns how many arrived (a file that shrank while being read
    /// keeps what is there) and the errno of a failed read, or 0.
    private static func fill(_ descriptor: Int32, _ storage: UnsafeMutableRawPointer?, size: Int) -> (
        filled: Int, failure: Int32
    ) {
        guard let storage else { return (0, 0) }
        var filled = 0
        while filled < size {
            let count = POSIX.read(descriptor, storage + filled, size - filled)
            if count < 0 {
                if errno == EINTR { continue }
                return (filled, errno)
            }
            if count == 0 { break }
            filled += count
        }
        return (filled, 0)
    }

    /// Makes every thread reopen the directory it keeps open (`OpenDirectory`) before it
    /// opens a file there again. A scan calls it as it starts and as its read pass ends: a
    /// directory's path stands for the same directory for no longer than one pass.
    package static func forgetOpenDirectories() {
        OpenDirectory.generation.add(1, ordering: .relaxed)
    }

    package static func describe(errno code: Int32) -> String {
        switch code {
        case ELOOP: "symlink loop or symlink not followed"
        case EACCES: "permission denied"
        case ENOENT: "no such file or directory"
        case EISDIR: "is a directory"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// The kind of a file system entry, for messages and for skipping what cannot be read.
package enum FileKind: String, Sendable {
    case regular = "regular file", directory, symlink, fifo = "FIFO", socket, characterDevice = "character device",
        blockDevice = "block device", unknown

    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// The entry's kind without following a symlink, or nil when it does not exist.
    package static func of(_ path: String) -> FileKind? {
        status(of: path)?.kind
    }

    /// The entry's kind without following a symlink and its key (for a symlink, the link's
    /// own), or nil when it does not exist.
    package static func status(of path: String) -> (kind: FileKind, key: FileKey)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (FileKind(mode: status.st_mode), FileKey(status))
    }
}

/// One growable read buffer per thread.
private final class ThreadReadBuffer {
    /// Buffers above this are freed after use, so one huge file does not pin its size.
    static let retainedCapacity = 16 * 1024 * 1024
    private static let slot = PerThread(ThreadReadBuffer.init)

    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    static var current: ThreadReadBuffer { slot.value }

    func reserve(_ size: Int) -> UnsafeMutableRawPointer? {
        if size > capacity || storage == nil {
            storage?.deallocate()
            capacity = max(size, 64 * 1024)
            storage = .allocate(byteCount: capacity, alignment: 16)
        }
        return storage
    }

    func shrinkIfLarge() {
        guard capacity > Self.retainedCapacity else { return }
        storage?.deallocate()
        storage = nil
        capacity = 0
    }

    deinit { storage?.deallocate() }
}

/// The directory a thread last opened a file in, kept open so the next file there is opened
/// relative to it (`openat`). A listing in git's order reads a directory's files one after
/// another; the kernel then looks up one name per file instead of every component of its
/// path (see docs/performance.md, "Opening files relative to the last directory").
private final class OpenDirectory {
    private static let slot = PerThread(OpenDirectory.init)
    static var current: OpenDirectory { slot.value }
    /// Bumped by `SafeFileReader.forgetOpenDirectories`.
    static let generation = Atomic<Int>(0)

    /// The directory's path, NUL-terminated, and the generation it was opened in.
    private var path: [CChar] = []
    private var descriptor: Int32 = -1
    private var openedIn = -1

    /// `open(file, flags)`, through the kept directory when `file` is in it. Any failure of
    /// the directory's own open falls back to opening `file` by its path, which then reports
    /// the problem as it would have.
    func open(_ file: String, flags: Int32) -> Int32 {
        file.withCString { file in
            let length = strlen(file)
            var nameStart = length
            while nameStart > 0, file[nameStart - 1] != CChar(UInt8(ascii: "/")) { nameStart -= 1 }
            // No directory part, or the root: nothing to keep.
            guard nameStart > 1 else { return POSIX.open(file, flags) }
            let directoryLength = nameStart - 1
            let generation = Self.generation.load(ordering: .relaxed)
            if openedIn != generation || path.count != directoryLength + 1 || memcmp(path, file, directoryLength) != 0 {
                if descriptor >= 0 { close(descriptor) }
                path = Array(UnsafeBufferPointer(start: file, count: directoryLength)) + [0]
                descriptor = POSIX.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                openedIn = generation
            }
            guard descriptor >= 0 else { return POSIX.open(file, flags) }
            return openat(descriptor, file + nameStart, flags)
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}
