/// A throwaway git repository for tests that need git's real behaviour (ignored files,
/// attributes, conflicts written by git itself).
package final class GitFixture: Sendable {
    package let directory: TemporaryDirectory
    package var path: String { directory.path }

    package init(_ label: String = "shipcheck-git") {
        directory = TemporaryDirectory(label)
        git("init", "-q")
        git("config", "user.name", "Test")
        git("config", "user.email", "test@example.com")
        git("config", "core.autocrlf", "false")
    }

    @discardableResult
    package func git(_ arguments: String..., allowFailure: Bool = false) -> CommandResult {
        CommandRunner.git(arguments, in: path, allowFailure: allowFailure)
    }

    @discardableResult
    package func write(_ relative: String, _ text: String) -> String { directory.write(relative, text) }

    /// Stages everything and commits.
    package func commitAll(_ message: String) {
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", message)
    }

    /// The three kinds of file git's listing tells apart: `tracked` committed (with a
    /// `.gitignore` naming each of `ignored`), then `untracked` and `ignored` written.
    package func writeTrackedUntrackedAndIgnored(
        tracked: [String: String], untracked: [String: String], ignored: [String: String]
    ) {
        write(".gitignore", ignored.keys.sorted().map { "/" + $0 + "\n" }.joined())
        for (path, text) in tracked { write(path, text) }
        commitAll("tracked")
        for (path, text) in untracked.merging(ignored, uniquingKeysWith: { first, _ in first }) { write(path, text) }
    }
}
