import ScanEngine
import Synchronization

/// The file system, counting what a scan asks of it: listings, and opens by path (the read
/// pass's and the artifact readers').
package final class CountingFileSource: FileSource {
    private let disk = DiskFileSource()
    package let listings = Atomic<Int>(0)
    private let counts = Mutex<[String: Int]>([:])

    package init() {}

    package var opens: [String: Int] { counts.withLock { $0 } }

    package func enumerate(root: String, scope: ScanScope, checksListedKinds: Bool) -> FileEnumeration {
        listings.add(1, ordering: .relaxed)
        return disk.enumerate(root: root, scope: scope, checksListedKinds: checksListedKinds)
    }

    package func withContents<T>(
        _ path: String, displayPath: String, sizeLimit: Int, _ body: (borrowing ByteView, FileKey?) -> T
    ) throws(InputError) -> T {
        counts.withLock { $0[path, default: 0] += 1 }
        return try disk.withContents(path, displayPath: displayPath, sizeLimit: sizeLimit, body)
    }

    /// Opens by the artifact readers (a bundle's binaries, a zip, a loose library).
    package func opening<T>(_ path: String, _ open: (String) throws(InputError) -> T) throws(InputError) -> T {
        counts.withLock { $0[path, default: 0] += 1 }
        return try open(path)
    }
}
