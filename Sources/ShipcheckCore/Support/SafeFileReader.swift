#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files without ever blocking on a FIFO or device, following a symlink, or
/// reading past a size cap. Every failure is an `InputError` naming the file.
public enum SafeFileReader {
    /// Default cap for text scanning: generous, but bounded so one file cannot exhaust memory.
    public static let defaultSizeLimit = 256 * 1024 * 1024

    public static func read(_ path: String, displayPath: String? = nil, sizeLimit: Int = defaultSizeLimit) throws(InputError) -> [UInt8] {
        let shown = displayPath ?? path
        // O_NONBLOCK: opening a FIFO with no writer must not hang. O_NOFOLLOW: the walk
        // already decided about symlinks; a swapped-in link is refused, not followed.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: shown, message: describe(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw InputError(path: shown, message: describe(errno: errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(path: shown, message: "not a regular file (\(FileKind(mode: status.st_mode)))")
        }
        let size = Int(status.st_size)
        guard size <= sizeLimit else {
            throw InputError(path: shown, message: "file is \(size) bytes, over the \(sizeLimit)-byte scanning limit (max-file-size)")
        }
        // Read straight into uninitialised storage: zero-filling first would touch every page twice.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size {
                let count = POSIX.read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }  // shrank while reading: keep what is there
                filled += count
            }
            initialized = filled
        }
        if failure != 0 { throw InputError(path: shown, message: describe(errno: failure)) }
        return bytes
    }

    public static func describe(errno code: Int32) -> String {
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
public enum FileKind: String, Sendable {
    case regular = "regular file", directory, symlink, fifo = "FIFO", socket, characterDevice = "character device",
        blockDevice = "block device", unknown

    public init(mode: mode_t) {
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
    public static func of(_ path: String) -> FileKind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileKind(mode: status.st_mode)
    }
}
