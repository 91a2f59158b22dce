import Foundation
import ScanEngine
import ShipcheckCore

/// `shipcheck conflicts`: leftover merge-conflict blocks and remnants, unmerged index entries
/// and a stopped merge, rebase, cherry-pick or revert.
///
/// The working tree is scanned by a pipeline with the `conflicts` check (`ConflictCheck`): in a
/// git work tree the files git tracks, listed from the index, plus (with `untracked`) untracked
/// files that are not ignored — the listing `query run` uses. The `--staged` and `--rev` scopes
/// read git's objects instead (`IndexScan`). `paths` limit the scan to files or directories
/// relative to `root` (the files pre-commit passes, for example); reported paths are relative
/// to `root`.
package struct ConflictScanner: Sendable {
    package let root: String
    package let configuration: Configuration
    package let scope: ConflictScope
    package let paths: [String]
    /// Working tree only: also scan untracked files that are not ignored (a mergetool's
    /// `*.orig` backups hold markers on purpose, so by default only tracked files are read).
    package let untracked: Bool
    /// The registry's rules (`RuleRegistry.rules`); the conflict rules among them run.
    package let rules: [any Rule.Type]

    package init(
        root: String, configuration: Configuration, rules: [any Rule.Type], scope: ConflictScope = .workingTree,
        paths: [String] = [],
        untracked: Bool = false
    ) {
        self.root = root
        self.configuration = configuration
        self.rules = rules
        self.scope = scope
        self.paths = paths
        self.untracked = untracked
    }

    package func run() -> CheckResult {
        var result: CheckResult
        switch scope {
        case .workingTree:
            let check = ConflictCheck(rules: rules, configuration: configuration, paths: paths)
            // Every file git lists is opened anyway (the reader refuses links, FIFOs and deleted
            // files, and the pipeline names them as the listing would): no lstat of each first.
            return ScanPipeline(
                root: root, configuration: configuration, source: DiskFileSource(listsUntracked: untracked),
                checksListedKinds: false
            ).run([check]).combined
        case .staged:
            result = IndexScan(
                root: root, configuration: configuration, rules: ConflictRules(rules, configuration: configuration),
                filter: PathFilter(paths), revision: nil
            ).run()
        case .revision(let revision):
            result = IndexScan(
                root: root, configuration: configuration, rules: ConflictRules(rules, configuration: configuration),
                filter: PathFilter(paths), revision: revision
            ).run()
        }
        return result.finalized(configuration: configuration)
    }
}
