import ArgumentParser
import Foundation
import SavedQueries
import ScanEngine
import ShipcheckCore

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
        let text: String
        if file == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw InputError(path: "<stdin>", message: "input is not valid UTF-8")
            }
            text = decoded
        } else {
            let bytes = try SafeFileReader.read(file, sizeLimit: 8 * 1024 * 1024)
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw InputError(path: file, message: "not valid UTF-8")
            }
            text = decoded
        }
        let incoming = try QueryStoreFormat.parse(text, file: file == "-" ? "<stdin>" : file)
        let configuration = try location.configuration(explicitConfig: configOption.config)
        let store = location.targetStore(configuration)
        let (added, replaced) = try store.importQueries(incoming, replacing: replace)
        try printOutput(
            "Imported \(added) new and \(replaced) replaced quer\(added + replaced == 1 ? "y" : "ies") into \(store.path).\n"
        )
    }
}
