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
    // Named apart from the C functions they call, which the bodies then reach unqualified on
    // Glibc and Darwin alike.

    /// The file holding the code that calls this (the caller's `#dsohandle`, looked up with
    /// `dladdr` on Darwin, where the process is the runner that loaded a test bundle;
    /// `/proc/self/exe` on Linux, where the tests are the process's own executable), nil when
    /// the loader cannot tell.
    @safe package static func imageHoldingCaller(_ handle: UnsafeRawPointer = #dsohandle) -> String? {
        #if canImport(Darwin)
        var info = Dl_info()
        guard dladdr(handle, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
        #else
        return "/proc/self/exe"
        #endif
    }

    /// `open(path, flags, mode)`: a descriptor, or -1 with `errno` set.
    package static func openFile(_ path: String, flags: Int32, mode: mode_t = 0) -> Int32 {
        open(path, flags, mode)
    }

    /// `open` of a path given as bytes (a name that is not UTF-8): a descriptor, or -1.
    package static func openFile(bytes path: [UInt8], flags: Int32, mode: mode_t = 0) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, flags, mode) }
        }
    }

    /// Up to `maximum` bytes read from `descriptor` (retrying an interrupted read): empty at
    /// the end, nil on an error.
    package static func readChunk(_ descriptor: Int32, maximum: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
            initialized = 0
            while true {
                let count = read(descriptor, buffer.baseAddress!, maximum)
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
    package static func removeFile(_ path: String) -> Bool { unlink(path) == 0 }

    /// `rename(from, to)`: whether the name moved.
    @discardableResult
    package static func moveFile(_ from: String, to: String) -> Bool { rename(from, to) == 0 }

    /// `chmod(path, mode)`: 0, or -1 with `errno` set.
    @discardableResult
    package static func setMode(_ path: String, _ mode: mode_t) -> Int32 { chmod(path, mode) }

    /// `symlink(target, path)`: 0, or -1 with `errno` set.
    package static func makeSymlink(_ target: String, at path: String) -> Int32 { symlink(target, path) }

    /// `mkfifo(path, mode)`: 0, or -1 with `errno` set.
    @discardableResult
    package static func makeFIFO(_ path: String, _ mode: mode_t) -> Int32 { mkfifo(path, mode) }

    /// `mknod(path, mode, device)`: 0, or -1 with `errno` set.
    package static func makeNode(_ path: String, _ mode: mode_t, _ device: dev_t) -> Int32 {
        mknod(path, mode, device)
    }

    /// `mkdir(path, mode)`: 0, or -1 with `errno` set.
    package static func makeDirectory(_ path: String, mode: mode_t) -> Int32 { mkdir(path, mode) }

    /// `truncate(path, size)`: 0, or -1 with `errno` set.
    package static func truncateFile(_ path: String, to size: Int) -> Int32 { truncate(path, off_t(size)) }

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
