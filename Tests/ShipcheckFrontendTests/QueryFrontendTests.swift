import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The `query` subcommands' work, through the frontend as the executable calls it: a store in a
/// temporary repository, the personal store in a temporary folder (never the user's).
@Suite struct QueryFrontendTests {
    let repository = TemporaryDirectory("shipcheck-query-frontend")
    let home = TemporaryDirectory("shipcheck-query-home")

    func stores(personal: Bool = false) -> QueryStores {
        QueryStores(
            root: repository.path, configuration: Configuration(), personal: personal,
            personalStore: QueryStore.personal(environment: ["XDG_CONFIG_HOME": home.path]))
    }

    @Test(
        arguments: [
            (nil, nil, "merge-conflicts", nil),
            ("todo", nil, nil, "give a NAME and a PATTERN, or --preset"),
            ("todo", "TODO", "merge-conflicts", "--preset brings its own pattern: give at most a NAME"),
            (nil, nil, "nope", "unknown preset 'nope' (presets: "),
            ("two words", "TODO", nil, "")
        ] as [(String?, String?, String?, String?)])
    func aNewQueryIsRefusedAsUsage(name: String?, pattern: String?, preset: String?, refusal: String?) {
        do {
            let query = try Frontend.newQuery(name: name, pattern: pattern, preset: preset) { $0.expectNone = true }
            #expect(refusal == nil, "accepted \(query.name)")
            #expect(query.name == "merge-conflicts" && query.expectNone)
        } catch {
            #expect(refusal.map { error.description.hasPrefix($0) } == true, "\(error)")
        }
    }

    @Test func aQueryIsAddedListedShownEditedExportedAndRemoved() throws {
        let stores = stores()
        let query = try Frontend.newQuery(name: "todo", pattern: "TODO", preset: nil) { $0.description = "open work" }
        let storePath = "\(repository.path)/.shipcheck/queries.yml"
        #expect(try Frontend.addQuery(query, in: stores) == "Saved query 'todo' in \(storePath).\n")

        let listed = try Frontend.listQueries(in: stores).split(separator: "\n")
        #expect(listed.count == 3)
        #expect(listed[0].hasPrefix("NAME") && listed[0].hasSuffix("DESCRIPTION"))
        #expect(listed[1].hasPrefix("todo") && listed[1].contains("repo") && listed[1].contains("never"))
        #expect(listed[1].hasSuffix("open work"))

        let shown = try Frontend.showQuery(named: "todo", in: stores)
        #expect(shown.hasPrefix("# repo: \(storePath)\n"))
        #expect(shown.contains("pattern: TODO") && shown.hasSuffix("# last run: never\n"))

        #expect(try Frontend.editQuery(named: "todo", in: stores) { _ in } == "Query 'todo' unchanged.\n")
        #expect(
            try Frontend.editQuery(named: "todo", in: stores) { $0.name = "fixme" }
                == "Updated query 'fixme' in \(storePath).\n")
        #expect(throws: InputError.self) { try Frontend.showQuery(named: "todo", in: stores) }

        let exported = try Frontend.exportQueries(named: ["fixme"], from: stores)
        #expect(try QueryStoreFormat.parse(exported, file: "export").map(\.name) == ["fixme"])
        #expect(throws: InputError.self) { try Frontend.exportQueries(named: ["todo"], from: stores) }

        #expect(try Frontend.removeQuery(named: "fixme", in: stores) == "Removed query 'fixme' from \(storePath).\n")
        #expect(try Frontend.listQueries(in: stores).hasPrefix("No saved queries."))
    }

    /// A name that is not saved is an error naming what is; `--all` takes every query of the
    /// stores read, a name given twice runs once.
    @Test func queryRunSelectsByNameOrAll() throws {
        let stores = stores()
        for name in ["alpha", "beta"] {
            _ = try Frontend.addQuery(SavedQuery(name: name, pattern: name), in: stores)
        }
        _ = try Frontend.addQuery(SavedQuery(name: "mine", pattern: "x"), in: self.stores(personal: true))
        #expect(try stores.selected(names: [], all: true).map(\.query.name) == ["alpha", "beta", "mine"])
        #expect(try stores.selected(names: ["beta", "beta"], all: false).map(\.query.name) == ["beta"])
        #expect(try self.stores(personal: true).selected(names: [], all: true).map(\.query.name) == ["mine"])
        #expect {
            try stores.selected(names: ["gamma"], all: false)
        } throws: { error in
            (error as? InputError)?.message == "no query named 'gamma'; saved: alpha, beta, mine"
        }
    }

    /// A file that cannot be imported is refused before the stores (and so the configuration)
    /// are asked for; a good one lands in the target store.
    @Test func importReadsTheFileBeforeTheStores() throws {
        let broken = repository.write("broken.yml", "queries: [\n")
        var asked = 0
        #expect(throws: InputError.self) {
            try Frontend.importQueries(from: broken, replacing: false) { () throws(InputError) in
                asked += 1
                return stores()
            }
        }
        #expect(asked == 0)
        let file = repository.write("mine.yml", QueryStoreFormat.render([SavedQuery(name: "todo", pattern: "TODO")]))
        let said = try Frontend.importQueries(from: file, replacing: false) { () throws(InputError) in
            stores(personal: true)
        }
        #expect(said == "Imported 1 new and 0 replaced query into \(home.path)/shipcheck/queries.yml.\n")
    }
}
