import Foundation
import ShipcheckTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How one run of the real binary on hostile input ended: exit status or signal, whether the
/// harness had to kill it, its output, and its peak resident memory (from `wait4`'s rusage).
struct HostileRun {
    var exitStatus: Int32?
    var signal: Int32?
    var timedOut: Bool
    var stdout: String
    var stderr: String
    var peakRSSBytes: Int

    var peakRSSMiB: Int { peakRSSBytes / (1024 * 1024) }

    /// The error lines on stderr (`path: error: …` / `path:line: error: …`).
    var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.contains(": error: ") } }
}

/// Runs `shipcheck` with a deadline, like `CommandRunner` but owning the child: the harness
/// kills it at the deadline (a hang fails the test instead of stalling the suite) and reads its
/// peak RSS from `wait4`. Output goes to files, so a chatty child never blocks on a pipe.
enum HostileRunner {
    /// Generous for any single run in this suite; a hang shows up as `timedOut`.
    static let defaultTimeout: Double = 60

    static func shipcheck(_ arguments: [String], in directory: String? = nil, timeout: Double = defaultTimeout,
                          asUser uid: uid_t? = nil) -> HostileRun {
        // `sh -c 'cd … && exec "$@"'` (and `setpriv … --`) exec into shipcheck: same pid, so
        // wait4's rusage is shipcheck's own.
        var command = [CommandRunner.shipcheckPath] + arguments
        if let uid {
            command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + command
        }
        command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory ?? FileManager.default.currentDirectoryPath] + command
        return run(command, timeout: timeout)
    }

    static func run(_ command: [String], timeout: Double) -> HostileRun {
        let output = TemporaryDirectory("shipcheck-hostile-run")
        let stdoutPath = output.path + "/stdout", stderrPath = output.path + "/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        precondition(spawned == 0, "cannot start \(command[0]): \(String(cString: strerror(spawned)))")

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                timedOut = true
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(10_000)
        }
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        // WIFEXITED / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
        return HostileRun(
            exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            timedOut: timedOut,
            stdout: read(stdoutPath),
            stderr: read(stderrPath),
            peakRSSBytes: peak
        )
    }
}
