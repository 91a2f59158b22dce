import Foundation
import SavedQueries
import ScanEngine
import ShipcheckCore

/// What `shipcheck query run` did: each query's matches compared with its last run.
package struct QueryRunOutcome: Sendable {
    package var refreshes: [QueryRefresh]
    /// Unreadable files, bad patterns, timeouts, and states that could not be saved.
    package var inputErrors: [InputError]
    /// 2 when an input failed; else 1 when a gate failed or a finding is at or above the
    /// failing severity; else 0.
    package var exitCode: Int32

    /// The matches as a report, for the formats other than text.
    package func report(failingSeverity: Severity) -> Report {
        Report(
            findings: refreshes.flatMap(\.findings), inputErrors: inputErrors,
            rules: QueryCheck.ownRules(among: RuleRegistry.rules).descriptions, failingSeverity: failingSeverity)
    }
}

extension Frontend {
    /// `shipcheck query run`: runs `queries` over `root` (in a git work tree, the files git tracks and, with
    /// `untracked` (the default), untracked files that are not ignored; without, the index's files alone),
    /// compares each with its last run, and saves the new state of every query whose run was complete (a run
    /// the timeout cut short keeps the old state). With `text`, the text report (in the layout `heading` says)
    /// is streamed to its output as files are searched and the refreshes keep no findings; without, they keep
    /// them all. `startedListing`: git's listing of `root`, when the caller started it ahead (see
    /// `GitListing`).
    package static func runQueries(
        _ queries: [ScopedQuery], root: String, configuration: Configuration, timeout: Double?,
        failingSeverity: Severity, untracked: Bool = true,
        text: (output: ByteOutput, color: Bool, heading: Bool)? = nil,
        progress: ScanProgress? = nil, startedListing: GitListing? = nil
    ) -> QueryRunOutcome {
        let ranAt = Date().timeIntervalSince1970
        var session: QueryRunSession?
        // Its one check needs no complete listing before it reads: the index's files are read
        // while a second git still walks the work tree for the untracked ones.
        let source = DiskFileSource(listsUntracked: untracked, startedListing: startedListing, defersUntracked: true)
        let run = QueryRunner(
            root: root, configuration: configuration, timeout: timeout, source: source, progress: progress
        ).run(queries) { searchable in
            session = QueryRunSession(queries: searchable, root: root, ranAt: ranAt, text: text)
            return session
        }
        guard let session else { preconditionFailure("the query check makes its sink") }
        session.finish()
        let inputErrors = run.inputErrors + session.errors
        let fails = session.refreshes.contains { refresh in
            refresh.failsGate || (refresh.matchCount > 0 && refresh.query.query.effectiveSeverity >= failingSeverity)
        }
        let exitCode = ExitStatus.of(inputErrors: !inputErrors.isEmpty, failsGate: fails)
        return QueryRunOutcome(refreshes: session.refreshes, inputErrors: inputErrors, exitCode: exitCode)
    }
}
