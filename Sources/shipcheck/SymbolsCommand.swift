import ArgumentParser

struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "List the symbols of ELF files, with Swift and C++ names demangled.",
        discussion: "Not built yet: exits 2."
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "Paths to check.")
    var paths: [String] = []

    func run() throws {
        notBuiltYet("shipcheck symbols")
    }
}
