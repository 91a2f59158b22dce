import Foundation

/// A file or argument the tool could not process: unreadable, corrupt, not a regular file,
/// a bad config. Reported as one line naming the input; the run goes on with the other
/// inputs and the exit code becomes 2. The same value also carries a note about an input that
/// does not fail the run (a deprecated spelling that still works, a preview `--fix` left
/// alone), printed with `noteDescription`.
package struct InputError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    package var line: Int?
    package var message: String

    package init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// A file over the configuration's `max-file-size`, which no check reads.
    package static func tooLarge(_ path: String, size: Int, limit: Int) -> InputError {
        InputError(path: path, message: "file is \(size) bytes, over the \(limit)-byte scanning limit (max-file-size)")
    }

    /// `path:line: error: message` — one line, newlines in the message flattened.
    package var description: String { line(saying: "error") }

    /// `path:line: note: message`, for a note.
    package var noteDescription: String { line(saying: "note") }

    private func line(saying level: String) -> String {
        let place = line.map { "\(path):\($0)" } ?? path
        let flat = message.replacingOccurrences(of: "\n", with: " ")
        return "\(place): \(level): \(flat)"
    }
}
