import Foundation

/// Something the user should know that is neither a finding nor an input error (a deprecated
/// spelling that still works, a preview `--fix` left alone): printed on standard error as
/// `path:line: note: message`, never in a report, never changing the exit code.
public struct Note: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String

    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(path):\($0)" } ?? path
        return "\(place): note: \(message.replacingOccurrences(of: "\n", with: " "))"
    }
}
