import Foundation
import ScanEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the real `shipcheck` with standard output, standard error or both on a pseudo-terminal,
/// as a person at a terminal runs it (colour, headings, progress lines), the others on pipes.
/// What the terminal shows comes back with its line ends as written (`\n`, not the
/// terminal's `\r\n`).
extension CommandRunner {
    package enum TerminalStream: Sendable { case stdout, stderr, both }

    package static func shipcheckOnTerminal(
        _ arguments: [String], terminal: TerminalStream, in directory: String? = nil,
        environment: [String: String] = [:]
    ) -> CommandResult {
        guard let (master, slave) = PseudoTerminal.openPair() else {
            preconditionFailure("no pseudo-terminal: \(errno)")
        }
        let tty = (
            child: FileHandle(fileDescriptor: slave, closeOnDealloc: true),
            reader: FileHandle(fileDescriptor: master, closeOnDealloc: true)
        )
        let out = Pipe(), err = Pipe()
        let pipeOut = (child: out.fileHandleForWriting, reader: out.fileHandleForReading)
        let pipeErr = (child: err.fileHandleForWriting, reader: err.fileHandleForReading)
        var result = run(
            shipcheckPath, arguments, in: directory, environment: environment, input: nil,
            stdout: terminal == .stderr ? pipeOut : tty, stderr: terminal == .stdout ? pipeErr : tty)
        // With both on the terminal, everything shown comes back as stdout, in the order shown.
        result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        result.stderr = result.stderr.replacingOccurrences(of: "\r\n", with: "\n")
        return result
    }
}
