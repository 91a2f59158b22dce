import Foundation
import SavedQueries
import ShipcheckCore

/// What `shipcheck query run` did: each query's matches compared with its last run.
public struct QueryRunOutcome: Sendable {
    public var refreshes: [QueryRefresh]
    /// Unreadable files, bad patterns, timeouts, and states that could not be saved.
    public var inputErrors: [InputError]
    /// 2 when an input failed; else 1 when a gate failed or a finding is at or above the
    /// failing severity; else 0.
    public var exitCode: Int32

    /// The matches as a report, for the formats other than text.
    public func report(failingSeverity: Severity) -> Report {
        Report(findings: refreshes.flatMap(\.findings), inputErrors: inputErrors,
               rules: QueryCheck.ownRules(among: RuleRegistry.rules).descriptions, failingSeverity: failingSeverity)
    }
}

extension Frontend {
    /// `shipcheck query run`: runs `queries` over `root`, compares each with its last run, and
    /// saves the new state of every query whose run was complete (a run the timeout cut short
    /// keeps the old state).
    public static func runQueries(_ queries: [ScopedQuery], root: String, configuration: Configuration, timeout: Double?,
                                  failingSeverity: Severity, progress: ScanProgress? = nil) -> QueryRunOutcome {
        let run = QueryRunner(root: root, configuration: configuration, timeout: timeout, progress: progress).run(queries)
        var inputErrors = run.inputErrors
        let ranAt = Date().timeIntervalSince1970
        let refreshes = run.results.map { result in
            QueryRefresh(result: result, previous: QueryState.load(root: root, query: result.query.query, scope: result.query.scope))
        }
        for refresh in refreshes where refresh.result.isComplete {
            do throws(InputError) {
                try refresh.state(ranAt: ranAt).save(root: root, query: refresh.result.query.query, scope: refresh.result.query.scope)
            } catch {
                inputErrors.append(error)
            }
        }
        let fails = refreshes.contains { refresh in
            refresh.failsGate || refresh.findings.first.map { $0.severity >= failingSeverity } == true
        }
        let exitCode = !inputErrors.isEmpty ? ExitStatus.inputError : fails ? ExitStatus.findings : ExitStatus.clean
        return QueryRunOutcome(refreshes: refreshes, inputErrors: inputErrors, exitCode: exitCode)
    }
}
