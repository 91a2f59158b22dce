import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a store's queries (all, or those named) as a query file for `query import`."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The file to write (atomically); standard output when omitted or '-'.")
    var file: String?

    @Option(name: .customLong("name"), help: ArgumentHelp("Export only this query (repeatable).", valueName: "name"))
    var names: [String] = []

    func run() throws {
        let text = try Frontend.exportQueries(named: names, from: location.stores(explicitConfig: configOption.config))
        let sink = try ReportSink(path: file == "-" ? nil : file)
        sink.write(text)
        try sink.finish()
    }
}
