import ArgumentParser

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Save, describe, list and re-run named searches kept in the repository.",
        discussion: "Not built yet: exits 2."
    )

    func run() throws {
        notBuiltYet("shipcheck query")
    }
}
