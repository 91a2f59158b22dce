import ArgumentParser
import SavedQueries
import ShipcheckCore

struct QueryRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a saved query (and its last-run state)."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The query's name.")
    var name: String

    func run() throws {
        let configuration = try location.configuration(explicitConfig: configOption.config)
        let store = location.targetStore(configuration)
        let removed = try store.remove(name)
        QueryState.move(root: location.root, from: removed, to: nil, scope: store.scope)
        try printOutput("Removed query '\(name)' from \(store.path).\n")
    }
}
