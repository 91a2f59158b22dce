import SavedQueries
import ScanEngine
import ShipcheckCore

/// Where the `query` subcommands find their queries: the repository root (its store, from the
/// configuration's `queries:` key, and the run state), and whether the personal store alone is
/// meant (`--personal`).
package struct QueryStores: Sendable {
    package let root: String
    package let configuration: Configuration
    package let personal: Bool
    /// The personal store (`QueryStore.personal()`: from the environment).
    let personalStore: QueryStore

    package init(
        root: String, configuration: Configuration, personal: Bool, personalStore: QueryStore = .personal()
    ) {
        self.root = root
        self.configuration = configuration
        self.personal = personal
        self.personalStore = personalStore
    }

    var repository: QueryStore { QueryStore.repository(root: root, configuration: configuration) }

    /// The store a change goes to: the personal one with `personal`, else the repository's.
    var target: QueryStore { personal ? personalStore : repository }

    /// The stores read: the personal one with `personal`, else both.
    var read: [QueryStore] { personal ? [personalStore] : [repository, personalStore] }

    /// Every query of the stores read; an unreadable store is an error.
    func queries() throws(InputError) -> [ScopedQuery] {
        var all: [ScopedQuery] = []
        for store in read { all += try store.loadScoped() }
        return all
    }

    /// The queries called `name` (one per store at most), or an error naming what exists.
    func lookup(_ name: String, in queries: [ScopedQuery]) throws(InputError) -> [ScopedQuery] {
        let found = queries.filter { $0.query.name == name }
        if found.isEmpty {
            let known = queries.map(\.query.name)
            let hint =
                known.isEmpty ? "no queries saved yet (shipcheck query add)" : "saved: " + known.joined(separator: ", ")
            throw InputError(
                path: read.map(\.path).joined(separator: ", "), message: "no query named '\(name)'; \(hint)")
        }
        return found
    }

    /// What `query run` runs: every saved query with `all`, else those named (each once, in the
    /// order named).
    package func selected(names: [String], all: Bool) throws(InputError) -> [ScopedQuery] {
        let saved = try queries()
        if all { return saved }
        var selected: [ScopedQuery] = []
        for name in names where !selected.contains(where: { $0.query.name == name }) {
            selected += try lookup(name, in: saved)
        }
        return selected
    }
}
