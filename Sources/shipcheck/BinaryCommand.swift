import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend

struct BinaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "binary",
        abstract: "Audit ELF release artifacts for leaked preview, test, mock and fixture code.",
        discussion: """
            PATHs are ELF files, static archives, or directories searched for them (by magic). \
            Without PATHs, the configuration's `binaries` globs are used. Stripped binaries are \
            audited through the Swift metadata sections. Exit codes: 0 clean, 1 findings at or \
            above the failing severity, 2 an input or the configuration could not be read.
            """
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "ELF files, static archives or directories.")
    var paths: [String] = []

    func run() throws {
        let configuration = try report.loadConfiguration(root: ".")
        do {
            try report.emit(Frontend.binary(paths: paths, configuration: configuration, failingSeverity: report.failingSeverity))
        } catch let usage as UsageError {
            throw ValidationError(usage.description)
        }
    }
}
