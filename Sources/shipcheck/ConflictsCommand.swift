import ArgumentParser
import ConflictScan
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "Find leftover merge-conflict markers in the working tree, the index or a revision.",
        discussion: """
            Reports complete conflict blocks (conflict-marker), stray openers, base markers and \
            closers (conflict-marker-remnant), unmerged index entries such as binary conflicts \
            (unmerged-path) and a stopped merge, rebase, cherry-pick or revert (merge-in-progress). \
            Marker sizes follow the conflict-marker-size git attribute; binary files are skipped.

            In a git work tree the working-tree scan reads the files git tracks (listed from the \
            index, as git grep); --untracked adds untracked files that are not ignored, such as the \
            *.orig backups a mergetool leaves (they hold markers on purpose). Outside git every \
            file under the directory is read.

            PATH operands limit the scan to those files or directories (relative to the current \
            directory, where .shipcheck.yml is read). A single directory outside the current \
            directory is scanned as its own root instead.

            Exit codes: 0 clean, 1 findings at or above the failing severity, 2 usage or input error.
            """
    )

    @OptionGroup var report: ReportOptions

    @Flag(help: "Scan the index (what the next commit holds) instead of the working tree: for pre-commit hooks.")
    var staged = false

    @Option(
        help: ArgumentHelp(
            "Scan a committed tree (branch, tag, commit) through git, without a checkout.", valueName: "rev"))
    var rev: String?

    @Flag(
        help:
            "In a git work tree, also scan untracked files that are not ignored (by default only the files git tracks)."
    )
    var untracked = false

    @Argument(help: "Files or directories to check (default: the current directory).")
    var paths: [String] = []

    func validate() throws {
        if staged && rev != nil { throw ValidationError("--staged and --rev choose different scopes; give one.") }
        if untracked && (staged || rev != nil) {
            throw ValidationError("--untracked adds files of the working tree; --staged and --rev read git's objects.")
        }
    }

    func run() throws {
        let (root, operands) = try Self.rootAndOperands(paths)
        let configuration = try report.loadConfiguration(root: root)
        let scope: ConflictScope = staged ? .staged : rev.map(ConflictScope.revision) ?? .workingTree
        try report.emit(
            Frontend.conflicts(
                root: root, operands: operands, scope: scope, untracked: untracked, configuration: configuration,
                failingSeverity: report.failingSeverity))
    }

    /// Operands are relative to the current directory, the scan's root. One directory outside
    /// it becomes the root itself (its own .shipcheck.yml, paths reported relative to it).
    static func rootAndOperands(_ paths: [String]) throws -> (root: String, operands: [String]) {
        let current = FileManager.default.currentDirectoryPath
        var operands: [String] = []
        var outside: [String] = []
        for path in paths {
            if let relative = LexicalPath.relative(path, to: current) {
                operands.append(relative)
            } else {
                outside.append(path)
            }
        }
        guard !outside.isEmpty else { return (".", operands) }
        if paths.count == 1, FileKind.of(outside[0]) == .directory { return (outside[0], []) }
        throw ValidationError(
            "'\(outside[0])' is outside the current directory; run shipcheck from a directory that holds every path, or pass one directory to scan it on its own."
        )
    }
}
