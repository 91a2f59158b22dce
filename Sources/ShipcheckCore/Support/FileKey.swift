#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file without reading it, from the `fstat` of the open that
/// read it: device, inode, size, and modification and change times in nanoseconds (git's stat
/// data). An edit changes the change time even when the size and modification time are put
/// back; a write in the same clock tick as an earlier read may not (see `isRacy`).
public struct FileKey: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    public init(_ status: stat) {
        #if canImport(Darwin)
        let modified = status.st_mtimespec, changed = status.st_ctimespec
        #else
        let modified = status.st_mtim, changed = status.st_ctim
        #endif
        self.init(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino), size: Int64(status.st_size),
                  modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                  changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
    }

    /// Whether a write may have left this key as it was: the file was modified or changed less
    /// than a second before `readAt` (seconds since 1970), the time the key was recorded, so a
    /// later write in the same timestamp tick keeps the same key (git's racy-clean rule).
    public func isRacy(readAt: Double) -> Bool {
        let limit = Int64((readAt - 1) * 1e9)
        return modified >= limit || changed >= limit
    }
}
