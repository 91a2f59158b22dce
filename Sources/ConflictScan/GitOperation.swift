import ScanEngine
import ShipcheckCore

/// A merge-like operation git has stopped in, read from its state files.
struct GitOperation: Sendable, Hashable {
    enum Kind: String, Sendable {
        case merge, rebase, mailbox = "am", cherryPick = "cherry-pick", revert

        var phrase: String {
            switch self {
            case .merge: "a merge"
            case .rebase: "a rebase"
            case .mailbox: "`git am`"
            case .cherryPick: "a cherry-pick"
            case .revert: "a revert"
            }
        }

        var fixHint: String {
            switch self {
            case .merge: "resolve and `git commit`, or `git merge --abort`"
            case .rebase: "resolve and `git rebase --continue`, or `git rebase --abort`"
            case .mailbox: "resolve and `git am --continue`, or `git am --abort`"
            case .cherryPick: "resolve and `git cherry-pick --continue`, or `git cherry-pick --abort`"
            case .revert: "resolve and `git revert --continue`, or `git revert --abort`"
            }
        }
    }

    var kind: Kind
    /// The state file or directory that shows it, as named inside the git directory.
    var evidence: String
    /// That file's path as reports show it (relative to the scanned root when inside it).
    var evidencePath: String

    /// The operation in progress in `repository`, or nil. Checked in the order git's own
    /// `wt-status.c` uses, so a conflicted pick during a rebase reads as the rebase.
    static func current(in repository: GitRepository) throws(InputError) -> GitOperation? {
        let output = try repository.run(["rev-parse", "--git-dir"])
        var gitDirectory = String(lossyUTF8: output)
        while gitDirectory.hasSuffix("\n") { gitDirectory.removeLast() }
        let absolute = gitDirectory.hasPrefix("/") ? gitDirectory : repository.directory + "/" + gitDirectory
        let candidates: [(String, Kind)] = [
            ("rebase-merge", .rebase), ("rebase-apply/applying", .mailbox), ("rebase-apply", .rebase),
            ("MERGE_HEAD", .merge), ("CHERRY_PICK_HEAD", .cherryPick), ("REVERT_HEAD", .revert)
        ]
        for (name, kind) in candidates where FileKind.of(absolute + "/" + name) != nil {
            let shownName = FileKind.of(absolute + "/" + name) == .directory ? name + "/" : name
            // rev-parse prints the git directory relative to the scanned root when it is below it.
            return GitOperation(kind: kind, evidence: shownName, evidencePath: gitDirectory + "/" + shownName)
        }
        return nil
    }
}
