import Foundation
import SavedQueries
import ScanEngine
import ShipcheckCore

/// The `query` subcommands that keep the stores (`add`, `list`, `show`, `edit`, `remove`,
/// `import`, `export`): each returns the text to print; `query run` is `runQueries`.
extension Frontend {
    /// The query `query add` saves: `preset`'s (renamed to `name` when given), else `name`
    /// searching for `pattern`, then `change` applied (the options given); refused when the name
    /// or pattern cannot be saved.
    package static func newQuery(
        name: String?, pattern: String?, preset: String?, _ change: (inout SavedQuery) -> Void
    ) throws(UsageError) -> SavedQuery {
        var query: SavedQuery
        if let preset {
            guard var base = QueryPresets.named(preset) else {
                throw UsageError(
                    "unknown preset '\(preset)' (presets: \(QueryPresets.all.map(\.name).joined(separator: ", ")))")
            }
            guard pattern == nil else { throw UsageError("--preset brings its own pattern: give at most a NAME") }
            if let name { base.name = name }
            query = base
        } else {
            guard let name, let pattern else { throw UsageError("give a NAME and a PATTERN, or --preset") }
            query = SavedQuery(name: name, pattern: pattern)
        }
        change(&query)
        if let problem = SavedQuery.problem(withName: query.name) { throw UsageError(problem) }
        if let problem = query.patternProblem() { throw UsageError(problem) }
        return query
    }

    /// `shipcheck query add`: saves `query` in the target store.
    package static func addQuery(_ query: SavedQuery, in stores: QueryStores) throws(InputError) -> String {
        let store = stores.target
        try store.add(query)
        return "Saved query '\(query.name)' in \(store.path).\n"
    }

    /// `shipcheck query list`: a table of the queries read, with their last runs.
    package static func listQueries(in stores: QueryStores) throws(InputError) -> String {
        let queries = try stores.queries()
        if queries.isEmpty {
            return "No saved queries. Add one with 'shipcheck query add NAME PATTERN' or '--preset merge-conflicts'.\n"
        }
        let header = ["NAME", "SCOPE", "KIND", "LAST RUN", "MATCHES", "DESCRIPTION"]
        let rows = queries.map { scoped -> [String] in
            let query = scoped.query
            let state = QueryState.load(root: stores.root, query: query, scope: scoped.scope)
            let current = state?.signature == query.definitionSignature
            let matches = state.map { current ? "\($0.matchCount)" : "\($0.matchCount)*" } ?? "-"
            let description = query.description.isEmpty ? query.pattern : query.description
            return [
                query.name + (query.expectNone ? " !" : ""), scoped.scope.rawValue, query.kind.rawValue,
                state.map { QueryRunText.timestamp($0.ranAt) } ?? "never", matches, FileEnumerator.escaped(description)
            ]
        }
        return table(header: header, rows: rows)
            + "\n! expect: none (a gate)   * counted before the query last changed\n"
    }

    /// Columns padded to their widest cell, the last one left as it is.
    static func table(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `shipcheck query show`: the definition of each query called `name` (as stored) and its last run.
    package static func showQuery(named name: String, in stores: QueryStores) throws(InputError) -> String {
        let found = try stores.lookup(name, in: try stores.queries())
        var out = ""
        for scoped in found {
            out += "# \(scoped.scope.rawValue): \(scoped.storePath)\n"
            out += QueryStoreFormat.render([scoped.query]).split(separator: "\n", omittingEmptySubsequences: false)
                .drop { !$0.hasPrefix("  - ") }.joined(separator: "\n")
            if let state = QueryState.load(root: stores.root, query: scoped.query, scope: scoped.scope) {
                let current =
                    state.signature == scoped.query.definitionSignature ? "" : " (before the query last changed)"
                out +=
                    "# last run: \(QueryRunText.timestamp(state.ranAt)), \(state.matchCount) match\(state.matchCount == 1 ? "" : "es")\(current)\n"
            } else {
                out += "# last run: never\n"
            }
        }
        return out
    }

    /// `shipcheck query edit`: `change` applied to the query called `name` in the target store;
    /// a renamed query's last-run state moves with it.
    package static func editQuery(
        named name: String, in stores: QueryStores, _ change: (inout SavedQuery) throws(InputError) -> Void
    ) throws(InputError) -> String {
        let store = stores.target
        let (old, new) = try store.edit(name, change)
        if old.name != new.name { QueryState.move(root: stores.root, from: old, to: new, scope: store.scope) }
        return old == new ? "Query '\(name)' unchanged.\n" : "Updated query '\(new.name)' in \(store.path).\n"
    }

    /// `shipcheck query remove`: the query called `name` and its last-run state deleted.
    package static func removeQuery(named name: String, in stores: QueryStores) throws(InputError) -> String {
        let store = stores.target
        let removed = try store.remove(name)
        QueryState.move(root: stores.root, from: removed, to: nil, scope: store.scope)
        return "Removed query '\(name)' from \(store.path).\n"
    }

    /// `shipcheck query import`: the queries of `file` ("-": standard input) added to the target
    /// store of `stores`, which is asked for once the file is read and parsed (a file that
    /// cannot be imported is refused before the configuration is loaded).
    package static func importQueries(
        from file: String, replacing: Bool, into stores: () throws(InputError) -> QueryStores
    ) throws(InputError) -> String {
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
        let store = try stores().target
        let (added, replaced) = try store.importQueries(incoming, replacing: replacing)
        return
            "Imported \(added) new and \(replaced) replaced quer\(added + replaced == 1 ? "y" : "ies") into \(store.path).\n"
    }

    /// `shipcheck query export`: the target store's queries (those of `names`, when given) as a
    /// query file.
    package static func exportQueries(named names: [String], from stores: QueryStores) throws(InputError) -> String {
        let store = stores.target
        var queries = try store.load()
        if !names.isEmpty {
            for name in names where !queries.contains(where: { $0.name == name }) {
                throw InputError(path: store.path, message: "no query named '\(name)' in this store")
            }
            queries = queries.filter { names.contains($0.name) }
        }
        return QueryStoreFormat.render(queries)
    }
}
