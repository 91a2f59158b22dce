import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List saved queries: name, scope, kind, last run, match count and description."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    func run() throws {
        try printOutput(try Frontend.listQueries(in: location.stores(explicitConfig: configOption.config)))
    }
}
