import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a saved query: description, pattern, options or name."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    @Argument(help: "The query's name.")
    var name: String

    @Option(help: ArgumentHelp("Give the query a new name (its last-run state moves with it).", valueName: "new-name"))
    var rename: String?

    @Option(name: .shortAndLong, help: "New description.")
    var description: String?

    @Option(help: "New pattern.")
    var pattern: String?

    @Flag var kind: QueryKindFlag?
    @Flag var caseMode: QueryCaseFlag?

    @Flag(inversion: .prefixedNo, help: "Match whole words only (--no-word: anywhere).")
    var word: Bool?

    @Option(help: ArgumentHelp("Replace the include globs (repeatable).", valueName: "glob"))
    var include: [String] = []

    @Flag(help: "Remove every include glob.")
    var clearInclude = false

    @Option(help: ArgumentHelp("Replace the exclude globs (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Flag(help: "Remove every exclude glob.")
    var clearExclude = false

    @Option(help: "New severity: error, warning or note.")
    var severity: Severity?

    @Flag(help: "Go back to the default severity.")
    var clearSeverity = false

    @Flag(inversion: .prefixedNo, help: "Make the query a gate (any match fails), or not.")
    var expectNone: Bool?

    func run() throws {
        try printOutput(
            try Frontend.editQuery(named: name, in: location.stores(explicitConfig: configOption.config), apply))
    }

    private func apply(to query: inout SavedQuery) throws(InputError) {
        if let rename { query.name = rename }
        if let description { query.description = description }
        if let pattern { query.pattern = pattern }
        if let kind { query.kind = kind.kind }
        if let caseMode { query.caseSensitive = caseMode == .caseSensitive }
        if let word { query.wholeWord = word }
        if clearInclude { query.include = [] }
        if !include.isEmpty { query.include = include }
        if clearExclude { query.exclude = [] }
        if !exclude.isEmpty { query.exclude = exclude }
        if clearSeverity { query.severity = nil }
        if let severity { query.severity = severity }
        if let expectNone { query.expectNone = expectNone }
    }
}
