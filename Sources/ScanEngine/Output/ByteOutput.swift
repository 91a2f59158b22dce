import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes to a file descriptor through one 256 KB buffer: a report of hundreds of thousands of
/// lines is written as it is made, in large writes, never held whole. A write that fails is
/// remembered and thrown by `flush`; later writes are dropped.
package final class ByteOutput {
    private var descriptor: Int32?
    /// Opens the destination on the first write that reaches it (see `init(displayPath:opening:)`).
    private var opening: (() throws(InputError) -> Int32)?
    private let closesDescriptor: Bool
    /// Names the destination in an error (`standard output`, a path).
    package let displayPath: String
    private var buffer: [UInt8] = []
    private var failure: InputError?
    /// Whether the failed write found no reader at the other end (EPIPE: `shipcheck … | head`).
    package private(set) var readerLeft = false
    /// What a memory output has been given (`memory()`); nil for a descriptor's.
    private var kept: [UInt8]?
    private static let capacity = 256 * 1024

    package init(descriptor: Int32, displayPath: String, closesDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.displayPath = displayPath
        self.closesDescriptor = closesDescriptor
        buffer.reserveCapacity(Self.capacity)
    }

    /// An output whose file is made only when the first bytes reach it: a report's temporary
    /// file then does not exist yet when the scan that fills it lists the tree.
    init(displayPath: String, opening: @escaping () throws(InputError) -> Int32) {
        self.displayPath = displayPath
        self.opening = opening
        closesDescriptor = true
        buffer.reserveCapacity(Self.capacity)
    }

    /// Standard output.
    package static func standardOutput() -> ByteOutput { ByteOutput(descriptor: 1, displayPath: "standard output") }

    /// An output that keeps what it is given, for text wanted whole (tests, a report shown twice).
    package static func memory() -> ByteOutput {
        let output = ByteOutput(descriptor: -1, displayPath: "memory")
        output.kept = []
        return output
    }

    /// Everything a memory output has been given.
    package var written: [UInt8] {
        drain()
        return kept ?? []
    }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes of this size or more go out directly, after what is buffered: copying them into
    /// the buffer first would only touch more memory (a query state's manifest is one write).
    private static let directWrite = 64 * 1024

    package func write(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count >= Self.directWrite {
            if !buffer.isEmpty { drain() }
            writeAll(bytes)
            return
        }
        if buffer.count + bytes.count > Self.capacity { drain() }
        buffer.append(contentsOf: bytes)
    }

    package func write(_ bytes: borrowing ByteView) { write(bytes.base) }

    package func write(_ bytes: some Collection<UInt8>) {
        if let done = bytes.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0)) }) { return done }
        Array(bytes).withUnsafeBytes { write($0) }
    }

    /// Writes what is buffered; throws the first failed write.
    package func flush() throws(InputError) {
        drain()
        if let failure { throw failure }
    }

    /// The descriptor, for what must be done to the file itself (fsync, seek), after `flush`;
    /// nil when it could not be opened.
    var fileDescriptor: Int32? { openedDescriptor() }

    private func openedDescriptor() -> Int32? {
        if let descriptor { return descriptor }
        guard failure == nil, let opening else { return nil }
        self.opening = nil
        do throws(InputError) {
            let opened = try opening()
            descriptor = opened
            return opened
        } catch {
            failure = error
            return nil
        }
    }

    private func drain() {
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        if kept != nil {
            kept?.append(contentsOf: bytes)
            return
        }
        guard failure == nil, var start = bytes.baseAddress, let descriptor = openedDescriptor() else { return }
        var left = bytes.count
        while left > 0 {
            let count = POSIX.write(descriptor, start, left)
            if count < 0 {
                if errno == EINTR { continue }
                readerLeft = errno == EPIPE
                failure = InputError(
                    path: displayPath, message: "cannot write: \(SafeFileReader.describe(errno: errno))")
                return
            }
            start += count
            left -= count
        }
    }

    deinit {
        if closesDescriptor, let descriptor { close(descriptor) }
    }
}

/// Output held back in an unlinked temporary file, to be copied into another output later: the
/// sections of a report that must follow one still being streamed.
package final class ByteSpool {
    package let output: ByteOutput

    package init() throws(InputError) {
        var directory = NSTemporaryDirectory()
        if directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        guard let file = TemporaryNames.makeFile("\(directory)/shipcheck-spool-XXXXXX") else {
            throw InputError(
                path: directory, message: "cannot create a temporary file: \(SafeFileReader.describe(errno: errno))")
        }
        unlink(file.path)
        output = ByteOutput(descriptor: file.descriptor, displayPath: directory, closesDescriptor: true)
    }

    /// Copies everything written so far into `destination`.
    package func copy(into destination: ByteOutput) throws(InputError) {
        try output.flush()
        guard let descriptor = output.fileDescriptor, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw InputError(path: output.displayPath, message: "cannot rewind a temporary file")
        }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { POSIX.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    path: output.displayPath,
                    message: "cannot read a temporary file: \(SafeFileReader.describe(errno: errno))")
            }
            if count == 0 { break }
            chunk.withUnsafeBytes { destination.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
