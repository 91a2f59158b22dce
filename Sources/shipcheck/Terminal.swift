import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line to standard error.
func printError(_ text: String) {
    writeNow(text.hasSuffix("\n") ? text : text + "\n", to: 2, "standard error")
}

/// Writes text to standard output as is, through the sink every report takes.
func printOutput(_ text: String) throws(InputError) {
    let sink = ReportSink.standardOutput()
    sink.write(text)
    try sink.finish()
}

/// Text to standard error through the byte sink, at once. A stream whose reader has gone
/// (`shipcheck … 2>&1 | head`) takes nothing more, and that is not an error of the run:
/// Foundation's `FileHandle.write` traps there instead.
private func writeNow(_ text: String, to descriptor: Int32, _ name: String) {
    let output = ByteOutput(descriptor: descriptor, displayPath: name)
    output.write(text)
    try? output.flush()
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

/// The progress line of a long run on standard error: only when standard error is a terminal
/// and the run is still going after a second (CI logs and pipes get nothing), redrawn five
/// times a second from the run's `ScanProgress`, cleared when the run ends.
final class ProgressLine: Sendable {
    /// Nil when there is no line to draw: the scan then counts nothing (no shared counter
    /// touched per file).
    let progress: ScanProgress?
    private let label: String
    private let state = Mutex((finished: false, shown: false))
    private let done = DispatchSemaphore(value: 0)

    init(_ label: String) {
        self.label = label
        guard Terminal.isTerminal(fileDescriptor: 2) else {
            progress = nil
            return
        }
        let progress = ScanProgress()
        self.progress = progress
        DetachedThread.start { [self] in
            var wait = 1.0
            var last: ScanProgress.Snapshot?
            while done.wait(timeout: .now() + wait) == .timedOut {
                wait = 0.2
                let now = progress.snapshot
                guard now != last else { continue }
                last = now
                let counts = now.total > 0 ? " \(now.done)/\(now.total)" : ""
                state.withLock { state in
                    guard !state.finished else { return }
                    writeNow("\r\u{1B}[K\(label): \(now.phase)\(counts)", to: 2, "standard error")
                    state.shown = true
                }
            }
        }
    }

    /// Clears the line (when it was shown) before the report is printed.
    func finish() {
        let shown = state.withLock { state in
            state.finished = true
            return state.shown
        }
        done.signal()
        if shown { writeNow("\r\u{1B}[K", to: 2, "standard error") }
    }
}
