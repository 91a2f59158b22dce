import Foundation

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
        let master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
        precondition(
            master >= 0 && PseudoTerminal.grant(master) == 0 && PseudoTerminal.unlock(master) == 0,
            "no pseudo-terminal: \(errno)")
        let slave = open(String(cString: PseudoTerminal.slaveName(master)), O_RDWR | O_NOCTTY)
        precondition(slave >= 0, "cannot open the pseudo-terminal's slave: \(errno)")
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

/// The POSIX pseudo-terminal calls. Glibc's module leaves them out (they sit behind
/// `_XOPEN_SOURCE` in <stdlib.h>), so on Linux they are looked up in the C library itself.
private enum PseudoTerminal {
    #if canImport(Glibc)
    private static func function<T>(_ name: String, as type: T.Type) -> T {
        // nil: RTLD_DEFAULT, the global symbol scope.
        guard let symbol = dlsym(nil, name) else {
            preconditionFailure("no \(name) in the C library")
        }
        return unsafeBitCast(symbol, to: type)
    }
    static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let slaveName = function("ptsname", as: (@convention(c) (Int32) -> UnsafePointer<CChar>).self)
    #else
    // Called through, not stored: a static's value must be Sendable in Swift 6, and whether a
    // stored reference to an imported C function is one rests on the compiler's inference; a
    // call needs none.
    static func open(_ flags: Int32) -> Int32 { posix_openpt(flags) }
    static func grant(_ master: Int32) -> Int32 { grantpt(master) }
    static func unlock(_ master: Int32) -> Int32 { unlockpt(master) }
    static func slaveName(_ master: Int32) -> UnsafePointer<CChar> { UnsafePointer(ptsname(master)!) }
    #endif
}
