import ArgumentParser
import SavedQueries
import ShipcheckCore

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
        let configuration = try location.configuration(explicitConfig: configOption.config)
        let found = try location.lookup(name, in: try location.queries(configuration), configuration: configuration)
        var out = ""
        for scoped in found {
            out += "# \(scoped.scope.rawValue): \(scoped.storePath)\n"
            out += QueryStoreFormat.render([scoped.query]).split(separator: "\n", omittingEmptySubsequences: false)
                .drop { !$0.hasPrefix("  - ") }.joined(separator: "\n")
            if let state = QueryState.load(root: location.root, query: scoped.query, scope: scoped.scope) {
                let current =
                    state.signature == scoped.query.definitionSignature ? "" : " (before the query last changed)"
                out +=
                    "# last run: \(QueryRunText.timestamp(state.ranAt)), \(state.matchCount) match\(state.matchCount == 1 ? "" : "es")\(current)\n"
            } else {
                out += "# last run: never\n"
            }
        }
        try printOutput(out)
    }
}
