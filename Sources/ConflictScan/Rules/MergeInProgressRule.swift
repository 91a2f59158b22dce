import ShipcheckCore

/// The repository is stopped in the middle of a merge-like operation.
package enum MergeInProgressRule: RepositoryConflictRule {
    package static let description = RuleDescription(
        id: "merge-in-progress",
        summary: "The repository is in the middle of a merge, rebase, cherry-pick or revert.",
        rationale: """
            A stopped merge, rebase, `git am`, cherry-pick or revert is why conflicts are in the \
            tree, and a build made now is made from a state no branch holds. git records the \
            operation in its directory (`git rev-parse --git-dir`): `MERGE_HEAD`, `rebase-merge/`, \
            `rebase-apply/`, `CHERRY_PICK_HEAD`, `REVERT_HEAD`. Unlike tools that only look when \
            `MERGE_HEAD` exists, every scope still searches files; this note says why they may \
            contain conflicts. Reported in the working-tree and `--staged` scopes. The examples \
            name the file found in the git directory.
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("↓3f2a9c1d5e7b8a6f4c2d1e0b9a8f7c6d5e4b3a21\n", path: ".git/MERGE_HEAD"),
            RuleExample("↓refs/heads/feature\n", path: ".git/rebase-merge/head-name"),
            RuleExample("↓2\n", path: ".git/rebase-apply/next"),
            RuleExample("↓3f2a9c1d5e7b8a6f4c2d1e0b9a8f7c6d5e4b3a21\n", path: ".git/CHERRY_PICK_HEAD"),
            RuleExample("↓3f2a9c1d5e7b8a6f4c2d1e0b9a8f7c6d5e4b3a21\n", path: ".git/REVERT_HEAD")
        ],
        nonTriggeringExamples: [
            RuleExample("3f2a9c1d5e7b8a6f4c2d1e0b9a8f7c6d5e4b3a21\n", path: ".git/ORIG_HEAD"),
            RuleExample("3f2a9c1d5e7b8a6f4c2d1e0b9a8f7c6d5e4b3a21\n", path: ".git/AUTO_MERGE")
        ]
    )

    static func findings(in state: RepositoryConflicts) -> [Finding] {
        state.operation.map { [finding($0)] } ?? []
    }

    static func finding(_ operation: GitOperation) -> Finding {
        Finding(
            ruleID: id, severity: description.defaultSeverity,
            message: "the repository is in the middle of \(operation.kind.phrase) (\(operation.evidence) exists)",
            location: .file(path: operation.evidencePath),
            fixHint: operation.kind.fixHint,
            identity: operation.kind.rawValue)
    }
}
