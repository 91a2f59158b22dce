#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash, or SIGKILL) only ever sees the old or the new
/// content: write a temporary file in the same directory, fsync, rename over the target.
///
/// Only a regular file is replaced. A symlink is followed and the file it names is replaced
/// (the link stays); a device, FIFO or socket (`--output /dev/null`, `/dev/stdout`, a shell's
/// `>(…)`) is written into as it is, since renaming over it would replace the device itself —
/// which root may do, and then `/dev/null` is a regular file for every process on the machine.
public enum AtomicFile {
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(InputError) {
        var target = stat()
        if stat(path, &target) == 0 {
            switch target.st_mode & S_IFMT {
            case S_IFREG:
                if let resolved = realpath(path, nil) {
                    defer { free(resolved) }
                    return try replace(with: bytes, at: String(cString: resolved), named: path)
                }
            case S_IFDIR:
                throw InputError(path: path, message: "is a directory")
            default:
                return try writeInPlace(bytes, to: path)
            }
        }
        try replace(with: bytes, at: path, named: path)
    }

    public static func write(_ text: String, to path: String) throws(InputError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes into a file that is not a regular one (there is nothing to replace atomically).
    private static func writeInPlace(_ bytes: some Collection<UInt8>, to path: String) throws(InputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: path, message: "cannot open: \(SafeFileReader.describe(errno: errno))") }
        defer { close(descriptor) }
        try writeAll(Array(bytes), to: descriptor, path: path)
    }

    /// The temporary-file-and-rename write of `path` (a regular file or a new one), errors naming `displayPath`.
    private static func replace(with bytes: some Collection<UInt8>, at path: String, named displayPath: String) throws(InputError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw InputError(path: displayPath, message: "cannot create a temporary file: \(SafeFileReader.describe(errno: errno))") }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            close(descriptor)
            if !ok { unlink(temporary) }
        }
        try writeAll(Array(bytes), to: descriptor, path: displayPath)
        // Keep the permissions of the file being replaced; new files get 0644 (mkstemp gives 0600).
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        fchmod(descriptor, mode)
        guard fsync(descriptor) == 0 else { throw InputError(path: displayPath, message: "cannot sync: \(SafeFileReader.describe(errno: errno))") }
        guard rename(temporary, path) == 0 else { throw InputError(path: displayPath, message: "cannot replace: \(SafeFileReader.describe(errno: errno))") }
        ok = true
    }

    private static func writeAll(_ data: [UInt8], to descriptor: Int32, path: String) throws(InputError) {
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { POSIX.write(descriptor, $0.baseAddress! + written, data.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, message: "cannot write: \(SafeFileReader.describe(errno: errno))")
            }
            written += count
        }
    }
}

/// An exclusive advisory lock (flock) held for the duration of `body`, so concurrent
/// read-modify-write cycles on a store serialise instead of losing updates.
public enum FileLock {
    public static func withLock<T>(at lockPath: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(path: lockPath, message: "cannot open lock file: \(SafeFileReader.describe(errno: errno))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw InputError(path: lockPath, message: "cannot lock: \(SafeFileReader.describe(errno: errno))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
