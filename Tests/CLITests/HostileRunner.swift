import Foundation
import ScanEngine
import ShipcheckTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How one run of the real binary on hostile input ended: exit status or signal, whether the
/// harness had to kill it, its output, and its peak resident memory.
struct HostileRun {
    var exitStatus: Int32?
    var signal: Int32?
    var timedOut: Bool
    /// Killed on purpose by `killAfter` (crash-safety tests), not for hanging.
    var killedOnPurpose = false
    var stdout: String
    var stderr: String
    var peakRSSBytes: Int

    var peakRSSMiB: Int { peakRSSBytes / (1024 * 1024) }

    /// The error lines on stderr (`path: error: …` / `path:line: error: …`).
    var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.contains(": error: ") } }
}

/// Runs `shipcheck` with a deadline, like `CommandRunner` but owning the child: the harness
/// kills it at the deadline (a hang fails the test instead of stalling the suite) and samples its
/// peak RSS. Output goes to files, so a chatty child never blocks on a pipe.
///
/// Peak RSS on Linux is the child's `VmHWM` from /proc, sampled every few milliseconds while it
/// runs (the high-water mark only grows, so the last sample is the peak up to then). Not
/// `wait4`'s `ru_maxrss`: the kernel folds the *spawning* process's high-water mark into it at
/// exec, so every child of a test process holding a 200 MB buffer would "peak" at 200 MB.
enum HostileRunner {
    /// Generous for any single run in this suite; a hang shows up as `timedOut`.
    static let defaultTimeout: Double = 60

    static func shipcheck(
        _ arguments: [String], in directory: String? = nil, timeout: Double = defaultTimeout,
        asUser uid: uid_t? = nil, killAfter: Double? = nil, environment: [String: String] = [:],
        openFileLimit: Int? = nil, stackLimitKiB: Int? = nil
    ) -> HostileRun {
        // `sh -c 'cd … && exec "$@"'` (and `setpriv … --`) exec into shipcheck: same pid, so
        // the memory sampled is shipcheck's own.
        var command = [CommandRunner.shipcheckPath] + arguments
        if let uid {
            command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + command
        }
        // A stack limit is also every new thread's default stack size (glibc).
        let limit =
            (openFileLimit.map { "ulimit -n \($0) && " } ?? "") + (stackLimitKiB.map { "ulimit -s \($0) && " } ?? "")
        command =
            ["/bin/sh", "-c", limit + "cd \"$0\" && exec \"$@\"", directory ?? FileManager.default.currentDirectoryPath]
            + command
        return run(command, timeout: timeout, killAfter: killAfter, environment: environment)
    }

    /// `killAfter`: SIGKILL the child after that many seconds if it is still running.
    ///
    /// Foundation's `Process`, which other tests in this process use at the same time, reaps
    /// children it did not start: a child reaped that way has lost its status, and its pid may
    /// already be another process's (once a `swift build` of the plugin test, whose 492 MiB
    /// were taken for shipcheck's peak). Such a run is lost, not measured wrong: it runs again.
    static func run(
        _ command: [String], timeout: Double, killAfter: Double? = nil, environment extra: [String: String] = [:]
    ) -> HostileRun {
        for _ in 1..<3 {
            if let run = runOnce(command, timeout: timeout, killAfter: killAfter, environment: extra) { return run }
        }
        return runOnce(command, timeout: timeout, killAfter: killAfter, environment: extra)
            ?? HostileRun(
                exitStatus: nil, signal: nil, timedOut: false, stdout: "",
                stderr: "the harness lost the child three times (reaped elsewhere)",
                peakRSSBytes: 0)
    }

    /// One run, or nil when the child was reaped by someone else.
    private static func runOnce(
        _ command: [String], timeout: Double, killAfter: Double?, environment extra: [String: String]
    ) -> HostileRun? {
        let output = TemporaryDirectory("shipcheck-hostile-run")
        let stdoutPath = output.path + "/stdout", stderrPath = output.path + "/stderr"
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // No personal query store from the account running the tests.
        environment["XDG_CONFIG_HOME"] = output.path + "/config"
        for (key, value) in extra { environment[key] = value }
        let spawned = WatchedProcess.spawn(command, environment: environment, stdout: stdoutPath, stderr: stderrPath)
        guard case .success(let pid) = spawned else {
            preconditionFailure("cannot start \(command[0]): \(spawned)")
        }

        let start = Date()
        let deadline = start.addingTimeInterval(timeout)
        var status: Int32 = 0
        var maximumResident = 0
        var timedOut = false
        var killedOnPurpose = false
        var peak = 0
        let identity = startTime(of: pid)
        while true {
            // Still our child (a zombie keeps its start time until it is reaped)?
            if let identity, startTime(of: pid) != identity { return nil }
            let waited: pid_t
            (waited, status, maximumResident) = WatchedProcess.wait(pid, blocking: false)
            if waited == pid { break }
            if waited < 0 {
                if errno == EINTR { continue }
                return nil
            }
            peak = max(peak, highWaterMark(of: pid) ?? 0)
            let overdue = killAfter.map { Date().timeIntervalSince(start) >= $0 } == true || Date() > deadline
            // Never signal a pid that is no longer our child.
            if overdue, let identity, startTime(of: pid) != identity { return nil }
            if let killAfter, Date().timeIntervalSince(start) >= killAfter {
                kill(pid, SIGKILL)
                killedOnPurpose = true
                (_, status, maximumResident) = WatchedProcess.wait(pid, blocking: true)
                break
            }
            if Date() > deadline {
                kill(pid, SIGKILL)
                timedOut = true
                (_, status, maximumResident) = WatchedProcess.wait(pid, blocking: true)
                break
            }
            usleep(killAfter == nil ? 2_000 : 500)
        }
        let read = { (path: String) in
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        // WIFEXITED / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        #if canImport(Darwin)
        peak = maximumResident  // bytes; Darwin's posix_spawn does not share the parent's memory
        #endif
        return HostileRun(
            exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            timedOut: timedOut,
            killedOnPurpose: killedOnPurpose,
            stdout: read(stdoutPath),
            stderr: read(stderrPath),
            peakRSSBytes: peak
        )
    }

    /// `VmHWM` of a running process, in bytes (Linux).
    /// When process `pid` started (`/proc/<pid>/stat` field 22), which tells one process from
    /// a later one given the same pid; nil where there is no /proc or no such process.
    private static func startTime(of pid: pid_t) -> Substring? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        return fields.count > 19 ? fields[19] : nil  // fields from the third on
    }

    private static func highWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
