import Foundation
import ScanEngine
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
        let child = try ChildProcess(
            git: ["cat-file", "--batch", "--buffer"], in: repository.directory, feedsInput: true,
            environment: repository.environment)
        // Feed requests and drain stderr on other threads so no pipe fills up and stalls git
        // (if git dies early, writing the remaining requests fails instead of killing us).
        let requests = Array(objects.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        let fed = child.input.map { descriptor in BackgroundValue { ChildProcess.writeAll(requests, to: descriptor) } }
        let errorOutput = BackgroundValue { ChildProcess.readAll(child.errors) }

        var reader = BufferedReader(FileHandle(fileDescriptor: child.output, closeOnDealloc: false))
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
                    failure = InputError(
                        path: repository.directory, message: "git cat-file stopped in the middle of an object")
                    break
                }
                body(index, .content(content))
            }
        }
        close(child.output)
        fed?.value
        let errorText = String(decoding: errorOutput.value, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        _ = child.wait()
        if let failure {
            throw InputError(path: failure.path, message: failure.message + (errorText.isEmpty ? "" : ": \(errorText)"))
        }
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
