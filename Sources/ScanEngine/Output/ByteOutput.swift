import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes to a file descriptor through one 256 KB buffer: a report of hundreds of thousands of
/// lines is written as it is made, in large writes, never held whole. A write that fails is
/// remembered and thrown by `flush`; later writes are dropped.
///
/// Written by one thread at a time, though not always the thread that made it (`query run`'s
/// report is written as files complete, on the scan's threads, then finished by the command):
/// its state is behind a lock, never contended, which makes those hand-overs ones the compiler
/// checks.
package final class ByteOutput: Sendable {
    /// Names the destination in an error (`standard output`, a path).
    package let displayPath: String
    private let closesDescriptor: Bool
    private let state: Mutex<State>

    private struct State {
        var descriptor: Int32?
        /// Opens the destination on the first write that reaches it (see `init(displayPath:opening:)`).
        var opening: (@Sendable () throws(InputError) -> Int32)?
        var buffer: [UInt8] = []
        var failure: InputError?
        /// Whether the failed write found no reader at the other end (EPIPE).
        var readerLeft = false
        /// What a memory output has been given (`memory()`); nil for a descriptor's.
        var kept: [UInt8]?
    }

    private static let capacity = 256 * 1024

    package init(descriptor: Int32, displayPath: String, closesDescriptor: Bool = false) {
        self.displayPath = displayPath
        self.closesDescriptor = closesDescriptor
        var state = State(descriptor: descriptor)
        state.buffer.reserveCapacity(Self.capacity)
        self.state = Mutex(state)
    }

    /// An output whose file is made only when the first bytes reach it: a report's temporary
    /// file then does not exist yet when the scan that fills it lists the tree.
    init(displayPath: String, opening: @escaping @Sendable () throws(InputError) -> Int32) {
        self.displayPath = displayPath
        closesDescriptor = true
        var state = State(opening: opening)
        state.buffer.reserveCapacity(Self.capacity)
        self.state = Mutex(state)
    }

    /// Standard output.
    package static func standardOutput() -> ByteOutput { ByteOutput(descriptor: 1, displayPath: "standard output") }

    /// An output that keeps what it is given, for text wanted whole (tests, a report shown twice).
    package static func memory() -> ByteOutput {
        let output = ByteOutput(descriptor: -1, displayPath: "memory")
        output.state.withLock { $0.kept = [] }
        return output
    }

    /// Everything a memory output has been given.
    package var written: [UInt8] {
        state.withLock { state in
            drain(&state)
            return state.kept ?? []
        }
    }

    /// Whether the failed write found no reader at the other end (EPIPE: `shipcheck … | head`).
    package var readerLeft: Bool { state.withLock { $0.readerLeft } }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes of this size or more go out directly, after what is buffered: copying them into
    /// the buffer first would only touch more memory (a query state's manifest is one write).
    private static let directWrite = 64 * 1024

    package func write(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            if bytes.count >= Self.directWrite {
                if !state.buffer.isEmpty { drain(&state) }
                writeAll(bytes, &state)
                return
            }
            if state.buffer.count + bytes.count > Self.capacity { drain(&state) }
            state.buffer.append(contentsOf: bytes)
        }
    }

    package func write(_ bytes: borrowing ByteView) { write(bytes.base) }

    package func write(_ bytes: some Collection<UInt8>) {
        if let done = bytes.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0)) }) { return done }
        Array(bytes).withUnsafeBytes { write($0) }
    }

    /// Writes what is buffered; throws the first failed write.
    package func flush() throws(InputError) {
        let failure = state.withLock { state in
            drain(&state)
            return state.failure
        }
        if let failure { throw failure }
    }

    /// The descriptor, for what must be done to the file itself (fsync, seek), after `flush`;
    /// nil when it could not be opened.
    var fileDescriptor: Int32? { state.withLock { openedDescriptor(&$0) } }

    private func openedDescriptor(_ state: inout State) -> Int32? {
        if let descriptor = state.descriptor { return descriptor }
        guard state.failure == nil, let opening = state.opening else { return nil }
        state.opening = nil
        do throws(InputError) {
            let opened = try opening()
            state.descriptor = opened
            return opened
        } catch {
            state.failure = error
            return nil
        }
    }

    private func drain(_ state: inout State) {
        // Taken out while it is written (writing changes the state): the storage stays unique,
        // so it is reused, not copied.
        var pending: [UInt8] = []
        swap(&pending, &state.buffer)
        pending.withUnsafeBytes { writeAll($0, &state) }
        pending.removeAll(keepingCapacity: true)
        state.buffer = pending
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, _ state: inout State) {
        if state.kept != nil {
            state.kept?.append(contentsOf: bytes)
            return
        }
        guard state.failure == nil, var start = bytes.baseAddress, let descriptor = openedDescriptor(&state) else {
            return
        }
        var left = bytes.count
        while left > 0 {
            let count = POSIX.write(descriptor, start, left)
            if count < 0 {
                if errno == EINTR { continue }
                state.readerLeft = errno == EPIPE
                state.failure = InputError(
                    path: displayPath, message: "cannot write: \(SafeFileReader.describe(errno: errno))")
                return
            }
            start += count
            left -= count
        }
    }

    deinit {
        if closesDescriptor, let descriptor = state.withLock({ $0.descriptor }) { close(descriptor) }
    }
}

/// Output held back in an unlinked temporary file, to be copied into another output later: the
/// sections of a report that must follow one still being streamed.
package final class ByteSpool: Sendable {
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
