import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so a reader (or a crash, or SIGKILL) only ever sees the old or the new
/// content: write a temporary file in the same directory, sync it (`DurableSync`), rename over the target.
///
/// Only a regular file is replaced. A symlink is followed and the file it names is replaced
/// (the link stays); a device, FIFO or socket (`--output /dev/null`, `/dev/stdout`, a shell's
/// `>(…)`) is written into as it is, since renaming over it would replace the device itself —
/// which root may do, and then `/dev/null` is a regular file for every process on the machine.
package enum AtomicFile {
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(InputError) {
        let writer = try Writer(path: path)
        writer.output.write(bytes)
        try writer.commit()
    }

    package static func write(_ text: String, to path: String) throws(InputError) {
        try write(Array(text.utf8), to: path)
    }

    /// The same write, streamed: `output` takes the bytes as they are made (a report, a query's
    /// state with hundreds of thousands of lines), `commit` puts them in place. A writer dropped
    /// without `commit` leaves the target as it was.
    package final class Writer {
        package let output: ByteOutput
        /// The temporary file renamed over `target` on commit, once made; nil when writing in place.
        private let temporary: TemporaryPath?
        private let target: String
        private var committed = false

        package init(path: String) throws(InputError) {
            var status = stat()
            var target = path
            var inPlace = false
            if stat(path, &status) == 0 {
                switch status.st_mode & S_IFMT {
                case S_IFREG:
                    if let resolved = realpath(path, nil) {
                        target = String(cString: resolved)
                        free(resolved)
                    }
                case S_IFDIR:
                    throw InputError(path: path, message: "is a directory")
                default:
                    inPlace = true
                }
            }
            self.target = target
            if inPlace {
                // Not a regular file (there is nothing to replace atomically): written into as it is.
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw InputError(path: path, message: "cannot open: \(SafeFileReader.describe(errno: errno))")
                }
                temporary = nil
                output = ByteOutput(descriptor: descriptor, displayPath: path, closesDescriptor: true)
                return
            }
            let directory = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
            let name = target.split(separator: "/").last.map(String.init) ?? target
            let template = "\(directory.isEmpty ? "/" : directory)/.\(name).tmp-XXXXXX"
            let made = TemporaryPath()
            temporary = made
            // Made on the first write: a report streamed into a file under the tree being scanned
            // must not be listed (and searched) by that scan.
            output = ByteOutput(displayPath: path) { () throws(InputError) -> Int32 in
                guard let file = TemporaryNames.makeFile(template) else {
                    throw InputError(
                        path: path, message: "cannot create a temporary file: \(SafeFileReader.describe(errno: errno))")
                }
                made.path.withLock { $0 = file.path }
                return file.descriptor
            }
        }

        /// Writes what is left, syncs, and renames the temporary file over the target.
        package func commit() throws(InputError) {
            _ = output.fileDescriptor  // makes the temporary file when nothing was written
            try output.flush()
            guard let path = temporary?.path.withLock({ $0 }), !committed, let descriptor = output.fileDescriptor else {
                return
            }
            // Keep the permissions of the file being replaced; new files get 0644 (mkstemp gives 0600).
            var existing = stat()
            let mode: mode_t = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
            fchmod(descriptor, mode)
            guard DurableSync.sync(descriptor) == 0 else {
                throw InputError(
                    path: output.displayPath, message: "cannot sync: \(SafeFileReader.describe(errno: errno))")
            }
            guard rename(path, target) == 0 else {
                throw InputError(
                    path: output.displayPath, message: "cannot replace: \(SafeFileReader.describe(errno: errno))")
            }
            committed = true
        }

        deinit {
            if !committed, let path = temporary?.path.withLock({ $0 }) { unlink(path) }
        }

        /// Set by the output's first write, on whichever thread makes it.
        private final class TemporaryPath: Sendable {
            let path = Mutex<String?>(nil)
        }
    }
}

/// An exclusive advisory lock (flock) held for the duration of `body`, so concurrent
/// read-modify-write cycles on a store serialise instead of losing updates.
package enum FileLock {
    package static func withLock<T>(at lockPath: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw InputError(path: lockPath, message: "cannot open lock file: \(SafeFileReader.describe(errno: errno))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR {
                throw InputError(path: lockPath, message: "cannot lock: \(SafeFileReader.describe(errno: errno))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
