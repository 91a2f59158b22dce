import Foundation
import ScanEngine

/// A scratch directory removed when the value is released. Tests write fixtures into it.
package final class TemporaryDirectory: Sendable {
    package let path: String

    package init(_ label: String = "shipcheck-test") {
        guard let created = TemporaryNames.makeDirectory(NSTemporaryDirectory() + "\(label)-XXXXXX") else {
            preconditionFailure("mkdtemp failed")
        }
        // realpath, which keeps the `/private` of `$TMPDIR` on Darwin, as `getcwd` and SwiftPM
        // do (Foundation's `resolvingSymlinksInPath()` drops it): paths the tests build from this
        // one then match the paths tools print.
        path = LexicalPath.resolved(created) ?? created
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
        // Through a descriptor closed on exec (Foundation's `Data.write` opens one that is not): a
        // child another test starts meanwhile would inherit it, and while that child lives a
        // script written here could not be run ("Text file busy").
        let descriptor = SystemCalls.openFile(full, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
        precondition(descriptor >= 0, "cannot write \(full): \(SafeFileReader.describe(errno: errno))")
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        file.write(Data(bytes))
        try! file.close()
        return full
    }

    package func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    package func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }
}
