import ArgumentParser

struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "Find leftover merge-conflict markers in the working tree, the index or a revision.",
        discussion: "Not built yet: exits 2."
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "Paths to check.")
    var paths: [String] = []

    func run() throws {
        notBuiltYet("shipcheck conflicts")
    }
}
