import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore

struct QueryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List saved queries: name, scope, kind, last run, match count and description."
    )

    @OptionGroup var location: QueryLocationOptions
    @OptionGroup var configOption: QueryConfigOption

    func run() throws {
        let configuration = try location.configuration(explicitConfig: configOption.config)
        let queries = try location.queries(configuration)
        if queries.isEmpty {
            try printOutput(
                "No saved queries. Add one with 'shipcheck query add NAME PATTERN' or '--preset merge-conflicts'.\n")
            return
        }
        let header = ["NAME", "SCOPE", "KIND", "LAST RUN", "MATCHES", "DESCRIPTION"]
        let rows = queries.map { scoped -> [String] in
            let query = scoped.query
            let state = QueryState.load(root: location.root, query: query, scope: scoped.scope)
            let current = state?.signature == query.definitionSignature
            let matches = state.map { current ? "\($0.matchCount)" : "\($0.matchCount)*" } ?? "-"
            let description = query.description.isEmpty ? query.pattern : query.description
            return [
                query.name + (query.expectNone ? " !" : ""), scoped.scope.rawValue, query.kind.rawValue,
                state.map { QueryRunText.timestamp($0.ranAt) } ?? "never", matches, FileEnumerator.escaped(description)
            ]
        }
        try printOutput(
            Self.table(header: header, rows: rows)
                + "\n! expect: none (a gate)   * counted before the query last changed\n")
    }

    static func table(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
