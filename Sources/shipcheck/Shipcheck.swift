import ArgumentParser
import ScanEngine
import ShipcheckCore

@main
struct Shipcheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shipcheck",
        abstract: "Audit a Swift app's sources and release builds before they ship.",
        discussion: """
            shipcheck catches the slips that break or leak release builds: SwiftUI previews and \
            Development Assets code not wrapped in `#if DEBUG`, leftover merge-conflict markers, \
            preview and test code inside release binaries, and debug-only build settings in \
            Release configurations.

            Exit codes: 0 nothing at or above the failing severity, 1 findings that fail the gate \
            (errors; warnings too with --strict), 2 usage, configuration or input error.
            """,
        version: VersionText.text,
        subcommands: [
            AuditCommand.self, SourcesCommand.self, ConflictsCommand.self, BinaryCommand.self, DiffCommand.self,
            SymbolsCommand.self, QueryCommand.self, InitCommand.self
        ]
    )

    /// Argument errors exit 2 (ArgumentParser's default is 64) so every usage, config and
    /// input problem shares one code a CI job can tell from "findings".
    static func main() {
        // A reader that stops early ends the output, not the run (see `printOutput`).
        SystemCalls.ignoreBrokenPipes()
        QueryRunCommand.startGuessedListing(CommandLine.arguments)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            exitProcess(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success { self.exit(withError: error) }
            if code == .validationFailure {
                printError(fullMessage(for: error))
                printError("Run 'shipcheck help' for usage.")
                exitProcess(ExitStatus.inputError)
            }
            if let input = error as? InputError {
                printError("shipcheck: \(input)")
                exitProcess(ExitStatus.inputError)
            }
            printError("shipcheck: error: \(fullMessage(for: error))")
            exitProcess(ExitStatus.inputError)
        }
    }
}
