import Foundation
import ScanEngine
import ShipcheckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a binary: a private mapping of a file (pages are read only when touched, so a
/// 1 GiB file with a small header costs what is read), or a buffer handed in by the caller (an
/// entry read straight out of a zip). Every image of a file — archive members, universal slices —
/// points into the one `FileBytes`, which lives as long as any of them.
///
/// The mapping is copy-on-write and writable because libelf's `elf_memory` may convert data in
/// place; nothing here ever writes back to the file.
package final class FileBytes: @unchecked Sendable {
    /// The whole contents.
    package let bytes: UnsafeRawBufferPointer
    private let release: () -> Void

    private init(bytes: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.bytes = bytes
        self.release = release
    }

    deinit { release() }

    /// A copy of the contents, for readers outside the binary readers (which may not hold the
    /// buffer).
    package var array: [UInt8] { withExtendedLifetime(self) { Array(bytes) } }

    /// The same copy as `Data`.
    package var data: Data { withExtendedLifetime(self) { Data(bytes) } }

    /// How many bytes there are, for readers outside the binary readers.
    package var count: Int { bytes.count }

    /// A copy of `contents` (for bytes that do not come from a file of their own).
    /// Contiguous bytes (an array, a buffer) are copied in one go, not byte by byte.
    package convenience init(copying contents: some Collection<UInt8>) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(contents.count, 1), alignment: 16)
        if contents.withContiguousStorageIfAvailable({ buffer.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
            _ = buffer.initializeMemory(as: UInt8.self, from: contents)
        }
        self.init(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<contents.count])) { buffer.deallocate() }
    }

    /// `count` bytes that `fill` writes into fresh memory (an entry read out of a zip); the memory
    /// is released if `fill` throws.
    static func filled(count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(InputError) -> Void)
        throws(InputError) -> FileBytes
    {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        do {
            try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            buffer.deallocate()
            throw error
        }
        return FileBytes(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { buffer.deallocate() }
    }

    /// Maps a regular, non-empty file. Errors name the file: missing, unreadable, not a regular
    /// file (FIFOs and devices are refused before anything blocks on them), empty.
    package static func map(path: String) throws(InputError) -> FileBytes {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: path, message: SafeFileReader.describe(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw InputError(path: path, message: SafeFileReader.describe(errno: errno))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(path: path, message: "not a regular file (\(FileKind(mode: status.st_mode).rawValue))")
        }
        let size = Int(status.st_size)
        guard size > 0 else { throw InputError(path: path, message: "empty file, not a binary") }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw InputError(path: path, message: "cannot map the file: \(SafeFileReader.describe(errno: errno))")
        }
        return FileBytes(bytes: UnsafeRawBufferPointer(start: base, count: size)) { munmap(base, size) }
    }

    /// A part of the contents (an archive member, a universal slice), bounds already checked.
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }
}
