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
///
/// Readers outside this module see the bytes only through checked `ImageBytes` views (`whole`,
/// `ImageBytes.slice`); the address stays here and in the libelf calls beside it.
package final class FileBytes: @unchecked Sendable {
    /// The whole contents.
    @usableFromInline let bytes: UnsafeRawBufferPointer

    private let release: () -> Void

    private init(bytes: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.bytes = bytes
        self.release = release
    }

    deinit { release() }

    /// A copy of the contents, for readers outside the binary readers (which may not hold the
    /// buffer).
    package var array: [UInt8] { whole.array }

    /// The same copy as `Data`.
    package var data: Data { whole.data }

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

    /// `count` bytes that `fill` appends, in pieces, to fresh memory (an entry read out of a zip,
    /// chunk by chunk); the memory is released if `fill` throws. Bytes not filled are zero.
    package static func filled<Failure: Error>(
        count: Int, _ fill: (inout Filler) throws(Failure) -> Void
    ) throws(Failure) -> FileBytes {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        var filler = Filler(buffer: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        do {
            try fill(&filler)
        } catch {
            buffer.deallocate()
            throw error
        }
        return FileBytes(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { buffer.deallocate() }
    }

    /// Appends pieces to the memory of `filled(count:_:)`, never past its end.
    package struct Filler: ~Copyable {
        private let buffer: UnsafeMutableRawBufferPointer
        /// How many bytes have been appended.
        package private(set) var written = 0

        fileprivate init(buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

        /// Appends `piece`; false (and nothing appended) when it does not fit.
        package mutating func append(_ piece: some DataProtocol) -> Bool {
            guard piece.count <= buffer.count - written else { return false }
            piece.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + piece.count)]))
            written += piece.count
            return true
        }
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

    /// All of the contents, as a checked view.
    package var whole: ImageBytes { ImageBytes(storage: self, start: 0, count: bytes.count) }
}
