import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend

extension ReportFormat: ExpressibleByArgument {}

/// Options every reporting subcommand shares: format, output file, strictness, config.
struct ReportOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: text, json, sarif, junit, github, gitlab.")
    var format: ReportFormat = .text

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the report to FILE (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Fail (exit 1) on warnings as well as errors.")
    var strict = false

    @Option(help: ArgumentHelp("Configuration file (default: .shipcheck.yml in the scanned root).", valueName: "file"))
    var config: String?

    @Flag(help: "Never colour text output (colour is also off when NO_COLOR is set or output is not a terminal).")
    var noColor = false

    var failingSeverity: Severity { strict ? .warning : .error }

    /// Loads the configuration for `root`; a broken config is an input error (exit 2).
    func loadConfiguration(root: String) throws -> Configuration {
        try Frontend.loadConfiguration(explicitPath: config, root: root)
    }

    /// Prints an entry point's messages to standard error, then its report (rendered, see
    /// `emit(_ report:)`) or its output, and exits with its code.
    func emit(_ outcome: CommandOutcome) throws -> Never {
        for message in outcome.messages { printError("shipcheck: \(message)") }
        if let report = outcome.report { try emit(report) }
        if let output = outcome.output { printOutput(output) }
        throw ExitCode(outcome.exitCode)
    }

    /// Renders the report, writes it, prints input errors to standard error, and exits with
    /// the report's exit code.
    func emit(_ report: Report) throws -> Never {
        for error in report.inputErrors { printError("shipcheck: \(error)") }
        let color = output == nil && !noColor && format == .text && Terminal.wantsColor(fileDescriptor: 1)
        let text = format.reporter(color: color).render(report)
        if let output {
            try AtomicFile.write(text, to: output)
        } else {
            printOutput(text)
        }
        throw ExitCode(report.exitCode)
    }
}
