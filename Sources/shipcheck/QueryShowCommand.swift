import ArgumentParser
import SavedQueries
import ShipcheckCore
import ShipcheckFrontend

struct QueryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a query's definition (as stored) and its last run."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The query's name.")
    var name: String

    func run() throws {
        try printOutput(try Frontend.showQuery(named: name, in: location.stores(explicitConfig: configOption.config)))
    }
}
