import Foundation
import ScanEngine

/// A scratch directory removed when the value is released. Tests write fixtures into it.
package final class TemporaryDirectory: @unchecked Sendable {
    package let path: String

    package init(_ label: String = "shipcheck-test") {
        guard let created = TemporaryNames.makeDirectory(NSTemporaryDirectory() + "\(label)-XXXXXX") else {
            preconditionFailure("mkdtemp failed")
        }
        path = URL(fileURLWithPath: created).resolvingSymlinksInPath().path
    }

    deinit {
        // Make everything writable first so an unreadable-file test does not leave debris.
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` at `relative` (creating folders) and returns the absolute path.
    @discardableResult
    package func write(_ relative: String, _ text: String) -> String {
        write(relative, bytes: Array(text.utf8))
    }

    @discardableResult
    package func write(_ relative: String, bytes: [UInt8]) -> String {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    package func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    package func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }
}
