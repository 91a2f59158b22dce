import ArgumentParser
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

extension ReportFormat: ExpressibleByArgument {}

/// Options every reporting subcommand shares: format, output file, strictness, config.
struct ReportOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: text, json, sarif, junit, github, gitlab.")
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

    /// Prints an entry point's messages to standard error, then its report (rendered, see
    /// `emit(_ report:)`) or its output, and exits with its code.
    func emit(_ outcome: CommandOutcome) throws -> Never {
        for message in outcome.messages { printError("shipcheck: \(message)") }
        if explain { for line in outcome.explanations { printError(line) } }
        if let report = outcome.report { try emit(report) }
        if let output = outcome.output { printOutput(output) }
        throw ExitCode(outcome.exitCode)
    }

    /// Renders the report, writes it, prints input errors to standard error, and exits with
    /// the report's exit code.
    func emit(_ report: Report) throws -> Never {
        for error in report.inputErrors { printError("shipcheck: \(error)") }
        let heading = wantsHeading
        try write(format.reporter(color: color, heading: heading, verbose: verbose).render(report))
        if format == .text && !heading { printError(TextReporter(color: false).summary(report)) }
        throw ExitCode(report.exitCode)
    }

    /// Writes a rendered report to `--output` (atomically) or standard output.
    func write(_ text: String) throws {
        if let output {
            try AtomicFile.write(text, to: output)
        } else {
            printOutput(text)
        }
    }
}
