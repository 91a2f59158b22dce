import ArgumentParser
import BinaryInspect
import ShipcheckCore

struct BinaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "binary",
        abstract: "Audit ELF and Mach-O release artifacts for leaked preview, test, mock and fixture code.",
        discussion: """
            PATHs are ELF files, Mach-O files (thin or universal: every slice is checked), static \
            archives, or directories searched for them (by magic). Without PATHs, the \
            configuration's `binaries` globs are used. Stripped binaries are audited through the \
            Swift metadata sections. Exit codes: 0 clean, 1 findings at or above the failing \
            severity, 2 an input or the configuration could not be read.
            """
    )

    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("Check only this slice of universal Mach-O files (arm64, arm64e, x86_64).", valueName: "arch"))
    var arch: String?

    @Argument(help: "ELF or Mach-O files, static archives or directories.")
    var paths: [String] = []

    func run() throws {
        let configuration = try report.loadConfiguration(root: ".")
        var targets = paths
        if targets.isEmpty {
            targets = BinaryTargets.fromConfiguration(configuration)
            guard !targets.isEmpty else {
                throw ValidationError("give binaries or directories, or list them under `binaries:` in \(Configuration.fileName)")
            }
        }
        let result = BinaryInspector(configuration: configuration, architecture: arch).run(paths: targets)
        try report.emit(Report(
            findings: result.findings, inputErrors: result.inputErrors,
            rules: BinaryInspectRules.all, failingSeverity: report.failingSeverity))
    }
}

/// The configuration's `binaries` globs, matched against the files under the current directory.
enum BinaryTargets {
    static func fromConfiguration(_ configuration: Configuration) -> [String] {
        guard !configuration.binaries.isEmpty else { return [] }
        let globs = GlobList(configuration.binaries)
        let files = FileEnumerator(root: ".", configuration: configuration, useGit: false).enumerate().files
        return files.filter { globs.matches($0.relativePath) }.map(\.path)
    }
}
