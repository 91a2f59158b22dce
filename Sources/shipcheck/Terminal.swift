#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes one line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// Writes text to standard output as is.
func printOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// Ends the process with `code` (from inside `main`, where ArgumentParser's own `exit` is shadowed).
func exitProcess(_ code: Int32) -> Never { exit(code) }

enum Terminal {
    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static func wantsColor(fileDescriptor: Int32) -> Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
        return isTerminal(fileDescriptor: fileDescriptor)
    }

    static func isTerminal(fileDescriptor: Int32) -> Bool { isatty(fileDescriptor) == 1 }
}

/// A one-line progress indicator on standard error, only when it is a terminal: CI logs and
/// pipes get nothing extra.
struct ProgressLine {
    let enabled = isatty(2) == 1

    func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
