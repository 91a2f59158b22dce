import ArgumentParser
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

extension ReportFormat: ExpressibleByArgument {}

/// Options every reporting subcommand shares: format, output file, strictness, config.
struct ReportOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help:
            "Output format: text, json, sarif, junit, github, gitlab, markdown (a pull-request comment or job summary)."
    )
    var format: ReportFormat = .text

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the report to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Fail (exit 1) on warnings as well as errors.")
    var strict = false

    @Option(help: ArgumentHelp("Configuration file (default: .shipcheck.yml in the scanned root).", valueName: "file"))
    var config: String?

    @Flag(help: "Never colour text output (colour is also off when NO_COLOR is set or output is not a terminal).")
    var noColor = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Text output grouped under each file's name, with snippets, fixes and the summary (the default on a terminal); --no-heading: one 'path:line:col: severity: message [rule]' line per finding, the summary on standard error (the default when piped or written to a file)."
        ))
    var heading: Bool?

    @Flag(
        help:
            "List every occurrence behind a grouped finding (a binary's build paths, its strings matching one pattern) in text output; JSON and SARIF always do."
    )
    var verbose = false

    @Flag(
        help: "Say on standard error which files were left out of which rules and why (test targets, path conventions)."
    )
    var explain = false

    var failingSeverity: Severity { strict ? .warning : .error }

    /// Colour only on a terminal (not into a file, never with --no-color or NO_COLOR).
    var color: Bool { output == nil && !noColor && format == .text && Terminal.wantsColor(fileDescriptor: 1) }

    /// The heading layout on a terminal, the one-line-per-finding layout otherwise, as
    /// ripgrep does; `--heading` / `--no-heading` force either.
    var wantsHeading: Bool { heading ?? (output == nil && Terminal.isTerminal(fileDescriptor: 1)) }

    /// Loads the configuration for `root`; a broken config is an input error (exit 2), a
    /// deprecated key a note on standard error.
    func loadConfiguration(root: String) throws -> Configuration {
        let configuration = try Frontend.loadConfiguration(explicitPath: config, root: root)
        for deprecation in configuration.deprecations { printError("shipcheck: \(deprecation)") }
        return configuration
    }

    /// Prints an entry point's messages to standard error, then writes its report (in the
    /// format asked for) or its output (a diff, a baseline's changes) where reports go, and
    /// exits with its code.
    func emit(_ outcome: CommandOutcome) throws -> Never {
        for message in outcome.messages { printError("shipcheck: \(message)") }
        if explain { for line in outcome.explanations { printError(line) } }
        if let report = outcome.report { try emit(report) }
        if let text = outcome.output {
            let sink = try ReportSink(path: output)
            sink.write(text)
            try sink.finish()
        }
        throw ExitCode(outcome.exitCode)
    }

    /// Writes the report, prints input errors to standard error, and exits with the report's
    /// exit code.
    func emit(_ report: Report) throws -> Never {
        for error in report.inputErrors { printError("shipcheck: \(error)") }
        try write(report, heading: wantsHeading)
        if format == .text && !wantsHeading { printError(TextReporter(color: false).summary(report)) }
        throw ExitCode(report.exitCode)
    }

    /// Writes the report in the format asked for to `--output` (put in place atomically) or
    /// standard output.
    func write(_ report: Report, heading: Bool) throws {
        let sink = try ReportSink(path: output)
        format.reporter(color: color, heading: heading, verbose: verbose).write(report, to: sink)
        try sink.finish()
    }
}
