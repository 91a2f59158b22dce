import ArgumentParser

struct BinaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "binary",
        abstract: "Audit ELF release artifacts for leaked preview, test, mock and fixture code.",
        discussion: "Not built yet: exits 2."
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "Paths to check.")
    var paths: [String] = []

    func run() throws {
        notBuiltYet("shipcheck binary")
    }
}
