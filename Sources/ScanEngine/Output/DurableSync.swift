#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a file's written bytes durable before it is renamed into place.
///
/// On Linux `fsync` writes the file through to the device. On Darwin it only hands the data to
/// the drive, which may keep it in its cache across a power loss: `fcntl(F_FULLFSYNC)` asks the
/// drive to flush. File systems that do not support it (some network and FUSE volumes) refuse
/// it, and `fsync` is then the most that can be had, as SQLite does.
package enum DurableSync {
    /// 0 on success; -1 with `errno` set otherwise, as `fsync`.
    package static func sync(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        if errno == EBADF { return -1 }
        #endif
        return fsync(descriptor)
    }
}
