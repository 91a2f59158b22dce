import ArgumentParser

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Check that every SwiftUI preview and Development Assets file is compiled only when DEBUG is set.",
        discussion: "Not built yet: exits 2."
    )

    @OptionGroup var report: ReportOptions

    @Argument(help: "Paths to check.")
    var paths: [String] = []

    func run() throws {
        notBuiltYet("shipcheck sources")
    }
}
