#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash, or SIGKILL) only ever sees the old or the new
/// content: write a temporary file in the same directory, fsync, rename over the target.
public enum AtomicFile {
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(InputError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw InputError(path: path, message: "cannot create a temporary file: \(SafeFileReader.describe(errno: errno))") }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            close(descriptor)
            if !ok { unlink(temporary) }
        }
        let data = Array(bytes)
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { POSIX.write(descriptor, $0.baseAddress! + written, data.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, message: "cannot write: \(SafeFileReader.describe(errno: errno))")
            }
            written += count
        }
        // Keep the permissions of the file being replaced; new files get 0644 (mkstemp gives 0600).
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        fchmod(descriptor, mode)
        guard fsync(descriptor) == 0 else { throw InputError(path: path, message: "cannot sync: \(SafeFileReader.describe(errno: errno))") }
        guard rename(temporary, path) == 0 else { throw InputError(path: path, message: "cannot replace: \(SafeFileReader.describe(errno: errno))") }
        ok = true
    }

    public static func write(_ text: String, to path: String) throws(InputError) {
        try write(Array(text.utf8), to: path)
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
