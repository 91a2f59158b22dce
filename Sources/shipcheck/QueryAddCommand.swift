import ArgumentParser
import SavedQueries
import ShipcheckCore
import ShipcheckFrontend

struct QueryAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a new query.",
        discussion: """
            Presets (--preset): \(QueryPresets.all.map(\.name).joined(separator: ", ")). \
            A pattern starting with '-' goes after '--'.
            """
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The query's name: its handle in every other command (letters, digits, '.', '_', '-').")
    var name: String?

    @Argument(help: "What to search for.")
    var pattern: String?

    @Option(
        help: ArgumentHelp("Start from a ready-made query; NAME defaults to the preset's name.", valueName: "preset"))
    var preset: String?

    @Option(name: .shortAndLong, help: "Free text shown in listings.")
    var description: String?

    @Flag var kind: QueryKindFlag?
    @Flag var caseMode: QueryCaseFlag?

    @Flag(name: [.customShort("w"), .customLong("word")], help: "Match whole words only.")
    var wholeWord = false

    @Option(help: ArgumentHelp("Only search paths matching GLOB (repeatable; '!GLOB' re-excludes).", valueName: "glob"))
    var include: [String] = []

    @Option(
        help: ArgumentHelp("Never search paths matching GLOB (repeatable; '!GLOB' re-includes).", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: "Severity of its findings: error, warning or note (default: error with --expect-none, else note).")
    var severity: Severity?

    @Flag(help: "Any match is a failure: `query run` exits 1 and `audit` fails.")
    var expectNone = false

    func run() throws {
        let query: SavedQuery
        do {
            query = try Frontend.newQuery(name: name, pattern: pattern, preset: preset, apply)
        } catch {
            throw ValidationError(error.description)
        }
        try printOutput(try Frontend.addQuery(query, in: location.stores(explicitConfig: configOption.config)))
    }

    private func apply(to query: inout SavedQuery) {
        if let description { query.description = description }
        if let kind { query.kind = kind.kind }
        if let caseMode { query.caseSensitive = caseMode == .caseSensitive }
        if wholeWord { query.wholeWord = true }
        query.include += include
        query.exclude += exclude
        if let severity { query.severity = severity }
        if expectNone { query.expectNone = true }
    }
}
