import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore

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
        let configuration = try location.configuration(explicitConfig: configOption.config)
        let store = location.targetStore(configuration)
        var queries = try store.load()
        if !names.isEmpty {
            for name in names where !queries.contains(where: { $0.name == name }) {
                throw InputError(path: store.path, message: "no query named '\(name)' in this store")
            }
            queries = queries.filter { names.contains($0.name) }
        }
        let sink = try ReportSink(path: file == "-" ? nil : file)
        sink.write(QueryStoreFormat.render(queries))
        try sink.finish()
    }
}
