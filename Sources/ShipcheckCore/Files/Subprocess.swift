import Dispatch
import Foundation

/// Runs a helper program (git) to completion and captures its output as bytes.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var output: [UInt8]
    public var errorOutput: String
}

public enum Subprocess {
    /// Runs `executable` (looked up on PATH) with `arguments` in `directory`, feeding `input`;
    /// `environment` entries are added to (or override) the inherited environment.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil, input: [UInt8]? = nil,
                           environment extra: [String: String] = [:]) throws(InputError) -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment["GIT_OPTIONAL_LOCKS"] = "0"  // a read-only check must not take index.lock
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        // waitUntilExit polls a run loop (50 ms steps on Linux): a handler reports the exit at once.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch {
            throw InputError(path: executable, message: "cannot run: \(error.localizedDescription)")
        }
        // Drain stderr and feed stdin on other threads so a full pipe never deadlocks us.
        let errorOutput = BackgroundValue { stderr.fileHandleForReading.readDataToEndOfFile() }
        let fed = input.map { input in
            BackgroundValue {
                try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
                try? stdin.fileHandleForWriting.close()
            }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        let errorText = String(decoding: errorOutput.value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        fed?.value
        // With a termination handler set, Foundation on Linux never releases the Process, so the
        // pipes' read ends stay open: two descriptors per run, until a process holding ~1,500 of
        // them crashes inside Process.run (its /proc/self/fd scan over-reads; Swift 6.3.1).
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        return ProcessResult(status: process.terminationStatus, output: [UInt8](output), errorOutput: errorText)
    }
}
