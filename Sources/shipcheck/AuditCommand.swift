import ArgumentParser

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Run every check as one release gate with one report and one exit code.",
        discussion: "Not built yet: exits 2."
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "Paths to check.")
    var paths: [String] = []

    func run() throws {
        notBuiltYet("shipcheck audit")
    }
}
