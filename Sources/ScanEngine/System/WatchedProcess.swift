import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with its standard streams on files, waited for by hand: what the
/// hostile-input tests need to watch a run (its peak memory, a deadline, a kill) that
/// Foundation's `Process` does not give. The calls take C pointers, so they are made here.
package enum WatchedProcess {
    /// Starts `command` (an absolute path and its arguments) with standard input from
    /// /dev/null and standard output and error into `stdout` and `stderr` (created or
    /// truncated), in `environment`: the child's pid, or the error number.
    package static func spawn(
        _ command: [String], environment: [String: String], stdout: String, stderr: String
    ) -> Result<pid_t, POSIXError> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil  // an opaque pointer there
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        return spawned == 0 ? .success(pid) : .failure(POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL))
    }

    /// One `wait4` on child `pid`: the pid it returned (0 while the child runs with `blocking`
    /// false, -1 with `errno` set), the wait status, and the child's peak resident memory as
    /// `getrusage` gives it (kilobytes on Linux, bytes on Darwin).
    package static func wait(_ pid: pid_t, blocking: Bool) -> (waited: pid_t, status: Int32, maximumResident: Int) {
        var status: Int32 = 0
        var usage = rusage()
        let waited = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
        return (waited, status, Int(usage.ru_maxrss))
    }
}
