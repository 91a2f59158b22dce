import ArgumentParser
import SavedQueries
import ShipcheckCore
import ShipcheckFrontend

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
        try printOutput(try Frontend.removeQuery(named: name, in: location.stores(explicitConfig: configOption.config)))
    }
}
