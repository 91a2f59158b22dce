import ScanEngine
import ShipcheckCore

/// The changes `shipcheck query add | edit | remove | import` make to a store, each one
/// read-modify-write under the store's lock, with the one check that a name is not taken.
extension QueryStore {
    /// Saves a new query; its name must be free.
    package func add(_ query: SavedQuery) throws(InputError) {
        try modify { (queries: inout [SavedQuery]) throws(InputError) in
            if let taken = Self.taken([query.name], in: queries).first {
                throw InputError(
                    path: path,
                    message: "a query named '\(taken)' already exists; change it with 'shipcheck query edit \(taken)'")
            }
            queries.append(query)
        }
    }

    /// Changes the query called `name`; a new name must be free and the result must be valid.
    /// Returns the query before and after.
    package func edit(_ name: String, _ change: (inout SavedQuery) throws(InputError) -> Void) throws(InputError) -> (
        old: SavedQuery, new: SavedQuery
    ) {
        try modify { (queries: inout [SavedQuery]) throws(InputError) -> (old: SavedQuery, new: SavedQuery) in
            let index = try index(of: name, in: queries)
            let old = queries[index]
            var query = old
            try change(&query)
            if let problem = SavedQuery.problem(withName: query.name) { throw InputError(path: path, message: problem) }
            if query.name != old.name, let taken = Self.taken([query.name], in: queries).first {
                throw InputError(path: path, message: "a query named '\(taken)' already exists")
            }
            if let problem = query.patternProblem() { throw InputError(path: path, message: problem) }
            queries[index] = query
            return (old, query)
        }
    }

    /// Deletes the query called `name` and returns it.
    package func remove(_ name: String) throws(InputError) -> SavedQuery {
        try modify { (queries: inout [SavedQuery]) throws(InputError) -> SavedQuery in
            queries.remove(at: try index(of: name, in: queries))
        }
    }

    /// Adds `incoming`; queries whose names are taken replace the old ones with `replacing`,
    /// else nothing is imported. Returns how many were added and replaced.
    package func importQueries(_ incoming: [SavedQuery], replacing: Bool) throws(InputError) -> (
        added: Int, replaced: Int
    ) {
        try modify { (queries: inout [SavedQuery]) throws(InputError) -> (added: Int, replaced: Int) in
            let clashes = Self.taken(incoming.map(\.name), in: queries)
            if !clashes.isEmpty && !replacing {
                throw InputError(
                    path: path,
                    message:
                        "already has \(clashes.map { "'\($0)'" }.joined(separator: ", ")); nothing imported (use --replace to overwrite)"
                )
            }
            for query in incoming {
                if let index = queries.firstIndex(where: { $0.name == query.name }) {
                    queries[index] = query
                } else {
                    queries.append(query)
                }
            }
            return (incoming.count - clashes.count, clashes.count)
        }
    }

    /// The names among `names` that a query in `queries` already has.
    private static func taken(_ names: [String], in queries: [SavedQuery]) -> [String] {
        names.filter { name in queries.contains { $0.name == name } }
    }

    private func index(of name: String, in queries: [SavedQuery]) throws(InputError) -> Int {
        guard let index = queries.firstIndex(where: { $0.name == name }) else {
            throw InputError(
                path: path,
                message:
                    "no query named '\(name)' in this store\(scope == .repository ? " (a personal one? add --personal)" : "")"
            )
        }
        return index
    }
}
