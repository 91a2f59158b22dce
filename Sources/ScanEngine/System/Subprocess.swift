import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a git command gave: exit status, output as bytes, error output as text.
package struct ProcessResult: Sendable {
    package var status: Int32
    package var output: [UInt8]
    package var errorOutput: String
}

/// Runs git, the one helper program shipcheck asks (what it ignores, attributes, the index).
package enum Subprocess {
    /// Runs git (looked up on PATH) with `arguments` in `directory`, feeding `input`;
    /// `environment` entries are added to (or override) the inherited environment. A git that
    /// cannot be started fails like a shell's command not found: status 127, the reason as its
    /// error output.
    package static func git(
        _ arguments: [String], in directory: String? = nil, input: [UInt8]? = nil,
        environment extra: [String: String] = [:]
    ) -> ProcessResult {
        var output: [UInt8] = []
        var result = git(
            arguments, in: directory, input: input, environment: extra, restart: { output = [] },
            output: { output.append(contentsOf: $0) })
        result.output = output
        return result
    }

    /// `git(_:in:input:environment:)` that hands standard output to `output` a chunk at a time,
    /// as git writes it, and keeps none of it (the result's `output` is empty): a long listing
    /// is taken apart while git is still writing it. `restart` is called before git runs again.
    package static func git(
        _ arguments: [String], in directory: String? = nil, input: [UInt8]? = nil,
        environment extra: [String: String] = [:],
        restart: () -> Void, output: (UnsafeRawBufferPointer) -> Void
    ) -> ProcessResult {
        // A child reaped by someone else (Foundation's `Process`, when something in this process
        // uses it, reaps children it did not start) has lost its status: the read-only
        // commands run here are run again.
        for attempt in 0..<3 {
            if attempt > 0 { restart() }
            if let result = runOnce(arguments, in: directory, input: input, environment: extra, output: output) {
                return result
            }
        }
        return ProcessResult(status: -1, output: [], errorOutput: "git's exit status was lost (reaped elsewhere)")
    }

    private static func runOnce(
        _ arguments: [String], in directory: String?, input: [UInt8]?, environment extra: [String: String],
        output: (UnsafeRawBufferPointer) -> Void
    ) -> ProcessResult? {
        let child: ChildProcess
        do {
            child = try ChildProcess(git: arguments, in: directory, feedsInput: input != nil, environment: extra)
        } catch {
            return ProcessResult(status: 127, output: [], errorOutput: "cannot run git: \(error.message)")
        }
        // Drain stderr and feed stdin on other threads so a full pipe never deadlocks us.
        let errorOutput = BackgroundValue { ChildProcess.readAll(child.errors) }
        let fed = child.input.map { descriptor in BackgroundValue { ChildProcess.writeAll(input ?? [], to: descriptor) }
        }
        ChildProcess.read(child.output, into: output)
        let errorText = String(decoding: errorOutput.value, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        fed?.value
        guard let status = child.wait() else { return nil }
        return ProcessResult(status: status, output: [], errorOutput: errorText)
    }
}

/// A git command started with `posix_spawnp` (PATH searched as a shell does; no
/// `/usr/bin/env`, no scan of open descriptors, no fork of this process's memory), its
/// standard output and error on pipes, its standard input on a pipe or `/dev/null`. Whoever
/// starts one reads both pipes to their end (closing them) and calls `wait` once.
package struct ChildProcess: Sendable {
    package let pid: pid_t
    /// The write end of the child's standard input, when it was given one.
    package let input: Int32?
    package let output: Int32
    package let errors: Int32

    /// `git arguments`, run as if started in `directory` (git's `-C`: posix_spawn's chdir is
    /// not portable); `environment` entries are added to (or override) the inherited
    /// environment, with `LC_ALL=C` and `GIT_OPTIONAL_LOCKS=0` (a read-only check must not
    /// take index.lock).
    package init(git arguments: [String], in directory: String?, feedsInput: Bool, environment extra: [String: String])
        throws(InputError)
    {
        let executable = "git"
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment.merge(extra) { _, new in new }

        // Pipes are made and children started under one lock, so no child started here inherits
        // another's pipe (which would hold that pipe open until it exits): every end is
        // close-on-exec before the next spawn; the child's ends are moved to 0, 1 and 2, which
        // clears it there. (pipe2's O_CLOEXEC is not in Swift's Glibc.)
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        var opened: [Int32] = []
        func pipePair() throws(InputError) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            let made = pipe(&ends)
            if made == 0 { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
            guard made == 0 else {
                throw InputError(path: executable, message: "cannot run: \(String(cString: strerror(errno)))")
            }
            opened += ends
            return (ends[0], ends[1])
        }
        let closeAll = { for descriptor in opened { close(descriptor) } }
        let outputPipe: (read: Int32, write: Int32), errorPipe: (read: Int32, write: Int32),
            inputPipe: (read: Int32, write: Int32)?
        do {
            outputPipe = try pipePair()
            errorPipe = try pipePair()
            inputPipe = feedsInput ? try pipePair() : nil
        } catch {
            closeAll()
            throw error
        }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let inputPipe {
            posix_spawn_file_actions_adddup2(&actions, inputPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe.write, 2)
        #if canImport(Darwin)
        // Every other descriptor closed in the child, even one another thread opened meanwhile
        // without close-on-exec.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif

        let argv = ([executable] + (directory.map { ["-C", $0] } ?? []) + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends are the child's now (or nobody's).
        close(outputPipe.write)
        close(errorPipe.write)
        if let inputPipe { close(inputPipe.read) }
        guard spawned == 0 else {
            close(outputPipe.read)
            close(errorPipe.read)
            if let inputPipe { close(inputPipe.write) }
            throw InputError(path: executable, message: String(cString: strerror(spawned)))
        }
        self.pid = pid
        input = inputPipe?.write
        output = outputPipe.read
        errors = errorPipe.read
    }

    private static let spawning = NSLock()

    /// Waits for the child to exit (reaping it): its exit status, or the signal that ended it;
    /// nil when someone else reaped it first.
    package func wait() -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    /// Everything `descriptor` yields until its end, then closes it.
    package static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        read(descriptor) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands `body` what `descriptor` yields, a read at a time, until its end; then closes it.
    package static func read(_ descriptor: Int32, into body: (UnsafeRawBufferPointer) -> Void) {
        defer { close(descriptor) }
        let chunkSize = 1 << 16
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = POSIX.read(descriptor, chunk, chunkSize)
            if count > 0 {
                body(UnsafeRawBufferPointer(start: chunk, count: count))
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }

    /// Writes all of `bytes` (or as much as the reader takes before it goes away), then
    /// closes `descriptor`. SIGPIPE is ignored so a child that exits early fails the write.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        defer { close(descriptor) }
        SystemCalls.ignoreBrokenPipes()
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = POSIX.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
