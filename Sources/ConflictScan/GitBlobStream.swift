import Foundation
import ShipcheckCore

/// Reads many blobs through one `git cat-file --batch` process, handing them over one at a
/// time so a scan of the index or of a revision never holds more than a batch in memory.
struct GitBlobStream {
    let repository: GitRepository
    /// Blobs larger than this are skipped (their bytes are drained, not kept).
    let sizeLimit: Int

    enum Blob {
        case content([UInt8])
        case tooLarge(Int)
        case missing
    }

    /// Calls `body` for each object in `objects`, in order.
    func read(_ objects: [String], _ body: (Int, Blob) -> Void) throws(InputError) {
        guard !objects.isEmpty else { return }
        // If git dies early, writing the remaining requests must fail with EPIPE, not kill us.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "cat-file", "--batch", "--buffer"]
        process.currentDirectoryURL = URL(fileURLWithPath: repository.directory)
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment.merge(repository.environment) { _, new in new }
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // waitUntilExit polls a run loop (50 ms steps on Linux): a handler reports the exit at once.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch {
            throw InputError(path: "git", message: "cannot run: \(error.localizedDescription)")
        }
        // Feed requests and drain stderr on other threads so no pipe fills up and stalls git.
        let requests = Data(objects.joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
        let writer = input.fileHandleForWriting
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? writer.write(contentsOf: requests)
            try? writer.close()
        }
        let errorText = ErrorText()
        DispatchQueue.global().async(group: group) { errorText.set(errors.fileHandleForReading.readDataToEndOfFile()) }

        var reader = BufferedReader(output.fileHandleForReading)
        var failure: InputError?
        for index in objects.indices {
            guard let header = reader.readLine() else {
                failure = InputError(path: repository.directory, message: "git cat-file stopped early")
                break
            }
            let fields = header.split(separator: UInt8(ascii: " "))
            guard fields.count == 3, let size = Int(String(lossyUTF8: fields[2])) else {
                body(index, .missing)
                continue
            }
            if size > sizeLimit {
                reader.skip(size + 1)
                body(index, .tooLarge(size))
            } else {
                let content = reader.read(size)
                _ = reader.read(1)  // the newline after the content
                guard content.count == size else {
                    failure = InputError(path: repository.directory, message: "git cat-file stopped in the middle of an object")
                    break
                }
                body(index, .content(content))
            }
        }
        try? output.fileHandleForReading.close()
        exited.wait()
        group.wait()
        if let failure { throw InputError(path: failure.path, message: failure.message + (errorText.text.isEmpty ? "" : ": \(errorText.text)")) }
    }
}

/// Buffered reads from a pipe: lines and exact byte counts.
private struct BufferedReader {
    let handle: FileHandle
    var buffer: [UInt8] = []
    var position = 0
    var atEnd = false

    init(_ handle: FileHandle) { self.handle = handle }

    private mutating func fill() -> Bool {
        guard !atEnd else { return false }
        let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    mutating func readLine() -> [UInt8]? {
        while true {
            if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[position..<newline])
                position = newline + 1
                return line
            }
            guard fill() else { return nil }
        }
    }

    mutating func read(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            if position == buffer.count, !fill() { break }
            let take = min(count - result.count, buffer.count - position)
            result.append(contentsOf: buffer[position..<(position + take)])
            position += take
        }
        return result
    }

    mutating func skip(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            if position == buffer.count, !fill() { return }
            let take = min(remaining, buffer.count - position)
            position += take
            remaining -= take
        }
    }
}

private final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } }
}
