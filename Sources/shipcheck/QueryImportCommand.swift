import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the queries of a file (written by `query export`) to a store.",
        discussion: """
            Moving personal queries into the repository: \
            shipcheck query export --personal mine.yml && shipcheck query import mine.yml
            """
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The file to read ('-': standard input).")
    var file: String

    @Flag(help: "Replace queries that already exist under the same name (default: refuse).")
    var replace = false

    func run() throws {
        let location = location, config = configOption.config
        try printOutput(
            try Frontend.importQueries(from: file, replacing: replace) { () throws(InputError) in
                try location.stores(explicitConfig: config)
            })
    }
}
