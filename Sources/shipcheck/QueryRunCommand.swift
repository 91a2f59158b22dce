import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Re-run saved queries: matches by file, then what is new and gone since the last run.",
        discussion: """
            What is searched: inside a git work tree, the files git tracks plus untracked files \
            that are not ignored (what ripgrep and Xcode's Find navigator search), so a file \
            written a moment ago is searched and its matches count as new; --tracked searches \
            the index's files alone (as git grep). Outside a work tree, every file below the \
            root. The configuration's include / exclude and each query's globs apply on top.

            Piped or written to a file, the report is a search result: one \
            path:line:col:matched line per match (rg --vimgrep's form, which editors' quickfix \
            lists read), each line prefixed with the query's name when several run; the counts \
            and what changed since the last run go to standard error.

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

    @Flag(
        help:
            "In a git work tree, search only the files git tracks, as git grep (by default untracked files that are not ignored are searched too)."
    )
    var tracked = false

    /// The default since untracked files are searched unless `--tracked`; still accepted.
    @Flag(help: .hidden)
    var untracked = false

    @Option(
        help: ArgumentHelp(
            "Stop searching after SECONDS and report the files cut short (exit 2).", valueName: "seconds"))
    var timeout: Double = QueryRunner.defaultTimeout

    func validate() throws {
        if names.isEmpty && !all { throw ValidationError("name the queries to run, or pass --all") }
        if !names.isEmpty && all { throw ValidationError("give query names or --all, not both") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if tracked && untracked { throw ValidationError("give --tracked or --untracked, not both") }
    }

    /// Starts git's listing of the current directory before the command line is parsed
    /// (`GitListing.startGuessed`) when `arguments` look like a `query run` of it: the
    /// default root, the mode `--tracked` asks for. Anything else (another command, `--root`,
    /// help) starts nothing.
    static func startGuessedListing(_ arguments: [String]) {
        let words = arguments.dropFirst()
        guard words.starts(with: ["query", "run"]),
            !words.contains(where: { $0 == "--root" || $0.hasPrefix("--root=") || $0 == "--help" || $0 == "-h" })
        else { return }
        GitListing.startGuessed(directory: ".", untracked: !words.contains("--tracked"))
    }

    func run() throws {
        // git lists the files while the configuration and the queries load (or has since
        // before the command line was parsed: `startGuessedListing`).
        let listing = GitListing.start(directory: location.root, untracked: !tracked)
        let stores = try location.stores(explicitConfig: report.config)
        let configuration = stores.configuration
        let selected = try stores.selected(names: names, all: all)
        if report.format == .text {
            // Streamed as the files are searched: to the --output file (put in place at the end),
            // else standard output. No progress line when the report itself is streaming onto
            // the terminal.
            let sink = try ReportSink(path: report.output)
            let heading = report.wantsHeading
            let line =
                report.output == nil && Terminal.isTerminal(fileDescriptor: 1)
                ? nil : ProgressLine("shipcheck query run")
            let outcome = Frontend.runQueries(
                selected, root: location.root, configuration: configuration, timeout: timeout,
                failingSeverity: report.failingSeverity, untracked: !tracked,
                text: (sink.output, report.color, heading), progress: line?.progress,
                startedListing: listing)
            line?.finish()
            try sink.finish()
            for error in outcome.inputErrors { printError("shipcheck: \(error)") }
            if !heading { printError(QueryRunText.summary(outcome.refreshes)) }
            throw ExitCode(outcome.exitCode)
        }
        let line = ProgressLine("shipcheck query run")
        let outcome = Frontend.runQueries(
            selected, root: location.root, configuration: configuration, timeout: timeout,
            failingSeverity: report.failingSeverity, untracked: !tracked, progress: line.progress,
            startedListing: listing)
        line.finish()
        for error in outcome.inputErrors { printError("shipcheck: \(error)") }
        try report.write(outcome.report(failingSeverity: report.failingSeverity), heading: false)
        throw ExitCode(outcome.exitCode)
    }
}
