import Foundation
import ScanEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command printed and how it exited.
package struct CommandResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs programs for tests: git for fixture repositories, the real `shipcheck` binary for
/// end-to-end checks.
package enum CommandRunner {
    /// One cache folder for every command of a test run (so later runs are warm, as in use).
    static let cacheHome = NSTemporaryDirectory() + "/shipcheck-test-cache-\(ProcessInfo.processInfo.processIdentifier)"

    @discardableResult
    package static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:], input: String? = nil
    ) -> CommandResult {
        let out = Pipe(), err = Pipe()
        return run(
            executable, arguments, in: directory, environment: environment, input: input,
            stdout: (out.fileHandleForWriting, out.fileHandleForReading),
            stderr: (err.fileHandleForWriting, err.fileHandleForReading))
    }

    /// Runs with `stdout` and `stderr` each given as the handle the child writes to and the one
    /// the test reads (a pipe's two ends, or a pseudo-terminal's slave and master).
    static func run(
        _ executable: String, _ arguments: [String], in directory: String?, environment: [String: String],
        input: String?,
        stdout: (child: FileHandle, reader: FileHandle), stderr: (child: FileHandle, reader: FileHandle)
    ) -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_AUTHOR_NAME"] = "Test"
        env["GIT_AUTHOR_EMAIL"] = "test@example.com"
        env["GIT_COMMITTER_NAME"] = "Test"
        env["GIT_COMMITTER_EMAIL"] = "test@example.com"
        // The result cache of `sources` and `audit` lives with the test run, not in the home folder.
        env["XDG_CACHE_HOME"] = Self.cacheHome
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let inPipe = Pipe()
        process.standardOutput = stdout.child
        process.standardError = stderr.child
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try! process.run()
        // The child holds its own copies: the reader sees the end once the child's are closed.
        try? stdout.child.close()
        if stderr.child !== stdout.child { try? stderr.child.close() }
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        // On another thread, so a chatty child never blocks on a full pipe.
        let reader = stderr.reader
        let errData = reader === stdout.reader ? nil : BackgroundValue { readToEnd(reader) }
        let outData = readToEnd(stdout.reader)
        process.waitUntilExit()
        try? stdout.reader.close()  // not left to the Process's release (see Subprocess.run)
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: errData.map { String(decoding: $0.value, as: UTF8.self) } ?? "")
    }

    /// Everything until end of file; a pseudo-terminal's master reports the end as an error
    /// (EIO) once the slave is closed, which ends the read the same way.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        while true {
            guard let chunk = SystemCalls.readChunk(handle.fileDescriptor, maximum: 65_536), !chunk.isEmpty else {
                return data
            }
            data.append(contentsOf: chunk)
        }
    }

    /// The `shipcheck` built beside the test product (SHIPCHECK_BINARY overrides): found from
    /// the file holding this code, not `CommandLine.arguments[0]` or `Bundle.main`, which on
    /// macOS are the runner that loaded the tests (`xctest`, `swiftpm-testing-helper`). On Linux
    /// that file is the test executable in the bin folder; on macOS the bundle's binary,
    /// `shipcheckPackageTests.xctest/Contents/MacOS/…`, three folders below it.
    package static let shipcheckPath: String = {
        if let explicit = ProcessInfo.processInfo.environment["SHIPCHECK_BINARY"] { return explicit }
        guard let image = SystemCalls.imageHoldingCaller() else {
            preconditionFailure("cannot tell which file holds the tests")
        }
        var directory = URL(fileURLWithPath: image).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("shipcheck").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        preconditionFailure(
            "no shipcheck binary beside \(image); build it (swift build --product shipcheck) or set SHIPCHECK_BINARY")
    }()

    /// Runs the real binary.
    @discardableResult
    package static func shipcheck(
        _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:], input: String? = nil
    ) -> CommandResult {
        run(shipcheckPath, arguments, in: directory, environment: environment, input: input)
    }

    /// Runs git and fails loudly when it fails (fixtures must be what the test thinks they are),
    /// unless `allowFailure` (merges that stop on conflicts exit 1).
    @discardableResult
    package static func git(_ arguments: [String], in directory: String, allowFailure: Bool = false) -> CommandResult {
        let result = run(
            "git", ["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"] + arguments, in: directory)
        precondition(
            allowFailure || result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        return result
    }
}
