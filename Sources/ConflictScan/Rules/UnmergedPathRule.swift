import ShipcheckCore

/// A path the index still holds at conflict stages 1–3.
package enum UnmergedPathRule: RepositoryConflictRule {
    package static let description = RuleDescription(
        id: "unmerged-path",
        summary: "The index still holds an unresolved conflict for this path.",
        rationale: """
            While a merge, rebase, cherry-pick, revert or stash pop is unresolved, git keeps the \
            conflicting versions of a path in the index at stages 1 (base), 2 (ours) and 3 \
            (theirs). Binary files, modify/delete and rename conflicts leave no markers in the file \
            at all, so this is the only trace: the working tree holds one side (or nothing) and a \
            build made from it ships whichever side that is. Reported in the working-tree and \
            `--staged` scopes, unless the same path already has a conflict-marker finding. The \
            examples are index listings in `git ls-files --stage` form.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                ↓100644 8d0e41234f24b6da002d962a26c2495ea16a425f 1\tAssets/logo.png
                100644 2e65efe2a145dda7ee51d1741299f848e5bf752e 2\tAssets/logo.png
                100644 63d8dbd40c23542e740659a7168a0ce3138ea748 3\tAssets/logo.png
                """, path: "index"),
            RuleExample(
                """
                ↓100644 8d0e41234f24b6da002d962a26c2495ea16a425f 1\tConfig/Release.xcconfig
                100644 2e65efe2a145dda7ee51d1741299f848e5bf752e 2\tConfig/Release.xcconfig
                """, path: "index")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                100644 8d0e41234f24b6da002d962a26c2495ea16a425f 0\tAssets/logo.png
                """, path: "index")
        ]
    )

    /// git status's words for a set of stages.
    static func conflictKind(stages: Set<Int>) -> String {
        switch (stages.contains(1), stages.contains(2), stages.contains(3)) {
        case (true, true, true): "both modified"
        case (false, true, true): "both added"
        case (true, true, false): "deleted by them"
        case (true, false, true): "deleted by us"
        case (false, true, false): "added by us"
        case (false, false, true): "added by them"
        default: "both deleted"
        }
    }

    /// Unmerged index entries, except paths whose markers were already reported as a block.
    static func findings(in state: RepositoryConflicts) -> [Finding] {
        state.unmerged.keys.sorted().filter { !state.pathsWithBlocks.contains($0) }.map {
            finding(path: $0, stages: state.unmerged[$0]!)
        }
    }

    static func finding(path: String, stages: Set<Int>) -> Finding {
        let kind = conflictKind(stages: stages)
        return Finding(
            ruleID: id, severity: description.defaultSeverity,
            message: "unmerged path (\(kind)): the conflict is not resolved in the index",
            location: .file(path: path),
            snippet: "stages " + stages.sorted().map(String.init).joined(separator: ", "),
            fixHint:
                "pick a version (`git checkout --ours/--theirs -- PATH` or edit it), then `git add` (or `git rm`) the path",
            identity: kind)
    }
}
