#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls that code outside the engine makes (lock files, state segments, the tests'
/// pseudo-terminals): a Swift string passed as a C string, or a buffer passed to `read`, is a
/// pointer conversion, which the memory-safety check outside the engine refuses, so the calls
/// are made here, each with the C function's result.
package enum SystemCalls {
    /// `open(path, flags, mode)`: a descriptor, or -1 with `errno` set.
    package static func open(_ path: String, flags: Int32, mode: mode_t = 0) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    /// `open` of a path given as bytes (a name that is not UTF-8): a descriptor, or -1.
    package static func open(bytes path: [UInt8], flags: Int32, mode: mode_t = 0) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { name in
                #if canImport(Glibc)
                Glibc.open(name.baseAddress!, flags, mode)
                #else
                Darwin.open(name.baseAddress!, flags, mode)
                #endif
            }
        }
    }

    /// Up to `maximum` bytes read from `descriptor` (retrying an interrupted read): empty at
    /// the end, nil on an error.
    package static func read(_ descriptor: Int32, maximum: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
            initialized = 0
            while true {
                let count = POSIX.read(descriptor, buffer.baseAddress!, maximum)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failed = true } else { initialized = count }
                return
            }
        }
        return failed ? nil : bytes
    }

    /// A write to a pipe whose reader has gone fails (EPIPE) instead of killing the process
    /// (SIGPIPE): a git child that exits early, a `shipcheck … | head` whose reader stops.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// `unlink(path)`: whether the name was removed.
    @discardableResult
    package static func unlink(_ path: String) -> Bool {
        #if canImport(Glibc)
        Glibc.unlink(path) == 0
        #else
        Darwin.unlink(path) == 0
        #endif
    }

    /// `rename(from, to)`: whether the name moved.
    @discardableResult
    package static func rename(_ from: String, _ to: String) -> Bool {
        #if canImport(Glibc)
        Glibc.rename(from, to) == 0
        #else
        Darwin.rename(from, to) == 0
        #endif
    }

    /// `chmod(path, mode)`: 0, or -1 with `errno` set.
    @discardableResult
    package static func chmod(_ path: String, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.chmod(path, mode)
        #else
        Darwin.chmod(path, mode)
        #endif
    }

    /// `symlink(target, path)`: 0, or -1 with `errno` set.
    package static func symlink(_ target: String, _ path: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.symlink(target, path)
        #else
        Darwin.symlink(target, path)
        #endif
    }

    /// `mkfifo(path, mode)`: 0, or -1 with `errno` set.
    @discardableResult
    package static func mkfifo(_ path: String, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.mkfifo(path, mode)
        #else
        Darwin.mkfifo(path, mode)
        #endif
    }

    /// `truncate(path, size)`: 0, or -1 with `errno` set.
    package static func truncate(_ path: String, _ size: Int) -> Int32 {
        #if canImport(Glibc)
        Glibc.truncate(path, off_t(size))
        #else
        Darwin.truncate(path, off_t(size))
        #endif
    }

    /// Sets the access and modification times of `path` to `seconds` since 1970
    /// (`utimensat`): whether it did.
    package static func setTimes(of path: String, seconds: Int, nanoseconds: Int = 0) -> Bool {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// The key of the file at `path` (`stat`, following symlinks), or nil when there is none.
    package static func fileKey(of path: String) -> FileKey? {
        var status = stat()
        return stat(path, &status) == 0 ? FileKey(status) : nil
    }

    /// `mknod(path, mode, device)`: 0, or -1 with `errno` set.
    package static func mknod(_ path: String, _ mode: mode_t, _ device: dev_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.mknod(path, mode, device)
        #else
        Darwin.mknod(path, mode, device)
        #endif
    }

    /// `mkdir(path, mode)`: 0, or -1 with `errno` set.
    package static func makeDirectory(_ path: String, mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.mkdir(path, mode)
        #else
        Darwin.mkdir(path, mode)
        #endif
    }

    /// The calendar fields of `time` in UTC (`gmtime_r`; `tm` itself holds a pointer), or nil
    /// when it has none.
    package static func utcCalendar(_ time: time_t) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        var time = time
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min)
        )
    }
}
