#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file without reading it, from the `fstat` of the open that
/// read it: device, inode, size, and modification and change times in nanoseconds (git's stat
/// data). An edit changes the change time even when the size and modification time are put
/// back; a write in the same clock tick as an earlier read may not (see `isRacy`).
package struct FileKey: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    /// Nanoseconds since 1970.
    package var modified: Int64
    package var changed: Int64

    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    package init(_ status: stat) {
        #if canImport(Darwin)
        let modified = status.st_mtimespec, changed = status.st_ctimespec
        #else
        let modified = status.st_mtim, changed = status.st_ctim
        #endif
        self.init(
            device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
            size: Int64(status.st_size),
            modified: Self.nanoseconds(Int64(modified.tv_sec), Int64(modified.tv_nsec)),
            changed: Self.nanoseconds(Int64(changed.tv_sec), Int64(changed.tv_nsec)))
    }

    /// A timestamp in nanoseconds; past the year 2262 (any file can be touched there) it stays
    /// at the largest value, which every run counts as racy, so such a file is always compared.
    private static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(nanoseconds)
        return overflowed ? .max : sum
    }

    /// Whether a write may have left this key as it was: the file was modified or changed less
    /// than a second before `readAt` (seconds since 1970), the time the key was recorded, so a
    /// later write in the same timestamp tick keeps the same key (git's racy-clean rule). A
    /// `readAt` no clock gives (a damaged state's) makes every key racy.
    package func isRacy(readAt: Double) -> Bool {
        let limit = (readAt - 1) * 1e9
        guard limit.isFinite, limit > -9e18, limit < 9e18 else { return true }
        return modified >= Int64(limit) || changed >= Int64(limit)
    }
}
