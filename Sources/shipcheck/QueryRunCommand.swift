import ArgumentParser
import Foundation
import SavedQueries
import ShipcheckCore

struct QueryRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Re-run saved queries: matches by file, then what is new and gone since the last run.",
        discussion: """
            Exit codes: 0 done; 1 a query with `expect: none` matched (or a finding at or above the \
            failing severity: error, or warning with --strict); 2 a store, file or pattern could not \
            be processed, or the timeout cut the run short (then the last-run state is kept as it was).
            """
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var report: ReportOptions

    @Argument(help: "Queries to run (by name).")
    var names: [String] = []

    @Flag(help: "Run every saved query.")
    var all = false

    @Option(help: ArgumentHelp("Stop searching after SECONDS and report the files cut short (exit 2).", valueName: "seconds"))
    var timeout: Double = QueryRunner.defaultTimeout

    func validate() throws {
        if names.isEmpty && !all { throw ValidationError("name the queries to run, or pass --all") }
        if !names.isEmpty && all { throw ValidationError("give query names or --all, not both") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let configuration = try location.configuration(explicitConfig: report.config)
        let saved = try location.queries(configuration)
        var selected: [ScopedQuery] = []
        if all {
            selected = saved
        } else {
            for name in names where !selected.contains(where: { $0.query.name == name }) {
                selected += try location.lookup(name, in: saved, configuration: configuration)
            }
        }
        let run = QueryRunner(root: location.root, configuration: configuration, timeout: timeout).run(selected)
        var inputErrors = run.inputErrors
        let ranAt = Date().timeIntervalSince1970
        let refreshes = run.results.map { result in
            QueryRefresh(result: result, previous: QueryState.load(root: location.root, query: result.query.query, scope: result.query.scope))
        }
        for refresh in refreshes where refresh.result.isComplete {
            do {
                try refresh.state(ranAt: ranAt).save(root: location.root, query: refresh.result.query.query, scope: refresh.result.query.scope)
            } catch {
                inputErrors.append(error)
            }
        }

        for error in inputErrors { printError("shipcheck: \(error)") }
        let text: String
        if report.format == .text {
            let color = report.output == nil && !report.noColor && Terminal.wantsColor(fileDescriptor: 1)
            text = QueryRunText.render(refreshes, color: color)
        } else {
            let findings = refreshes.flatMap(\.findings)
            text = report.format.reporter().render(Report(findings: findings, inputErrors: inputErrors, rules: SavedQueriesRules.all, failingSeverity: report.failingSeverity))
        }
        if let output = report.output {
            try AtomicFile.write(text, to: output)
        } else {
            printOutput(text)
        }
        if !inputErrors.isEmpty { throw ExitCode(ExitStatus.inputError) }
        let fails = refreshes.contains { refresh in
            refresh.failsGate || refresh.findings.first.map { $0.severity >= report.failingSeverity } == true
        }
        throw ExitCode(fails ? ExitStatus.findings : ExitStatus.clean)
    }
}
