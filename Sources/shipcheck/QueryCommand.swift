import ArgumentParser
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Save, describe, list and re-run named searches kept in the repository.",
        discussion: """
            Queries live in .shipcheck/queries.yml (shared with the team; path from the config's \
            `queries:` key) or, with --personal, in $XDG_CONFIG_HOME/shipcheck/queries.yml. \
            `query run` re-runs them and says what is new and gone since the last run; a query \
            with `expect: none` fails the run (exit 1) when it matches. See docs/query.md.
            """,
        subcommands: [
            QueryAddCommand.self, QueryListCommand.self, QueryShowCommand.self, QueryRunCommand.self,
            QueryEditCommand.self, QueryRemoveCommand.self, QueryImportCommand.self, QueryExportCommand.self
        ]
    )
}

/// Where the stores are: the repository root (for the repository store and run state) and
/// whether the personal store is meant.
struct QueryLocationOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Repository root holding .shipcheck/.", valueName: "dir"))
    var root: String = "."

    @Flag(
        help: "Use the personal store ($XDG_CONFIG_HOME/shipcheck/queries.yml, else ~/.config/shipcheck/queries.yml).")
    var personal = false

    func configuration(explicitConfig: String?) throws -> Configuration {
        let configuration = try Frontend.loadConfiguration(explicitPath: explicitConfig, root: root)
        for deprecation in configuration.deprecations { printError("shipcheck: \(deprecation)") }
        return configuration
    }

    func repositoryStore(_ configuration: Configuration) -> QueryStore {
        QueryStore.repository(root: root, configuration: configuration)
    }

    /// The store a change goes to: personal with --personal, else the repository's.
    func targetStore(_ configuration: Configuration) -> QueryStore {
        personal ? QueryStore.personal() : repositoryStore(configuration)
    }

    /// The stores to read: the personal one with --personal, else both.
    func readStores(_ configuration: Configuration) -> [QueryStore] {
        personal ? [QueryStore.personal()] : [repositoryStore(configuration), QueryStore.personal()]
    }

    /// Every query in the stores to read; an unreadable store is an error (exit 2).
    func queries(_ configuration: Configuration) throws -> [ScopedQuery] {
        var all: [ScopedQuery] = []
        for store in readStores(configuration) { all += try store.loadScoped() }
        return all
    }

    /// The queries called `name` (one per store at most), or an error naming what exists.
    func lookup(_ name: String, in queries: [ScopedQuery], configuration: Configuration) throws -> [ScopedQuery] {
        let found = queries.filter { $0.query.name == name }
        if found.isEmpty {
            let known = queries.map(\.query.name)
            let hint =
                known.isEmpty ? "no queries saved yet (shipcheck query add)" : "saved: " + known.joined(separator: ", ")
            throw InputError(
                path: readStores(configuration).map(\.path).joined(separator: ", "),
                message: "no query named '\(name)'; \(hint)")
        }
        return found
    }
}

/// `--config`, for subcommands without the report options.
struct QueryConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("Configuration file (default: .shipcheck.yml in the root).", valueName: "file"))
    var config: String?
}

extension Severity: ExpressibleByArgument {}

/// `--literal` / `--regex`.
enum QueryKindFlag: String, EnumerableFlag {
    case literal, regex

    var kind: SavedQuery.Kind { self == .literal ? .literal : .regex }

    static func help(for value: QueryKindFlag) -> ArgumentHelp? {
        value == .literal
            ? "Match the pattern as plain text (default for new queries)."
            : "Match the pattern as a regular expression, line by line (syntax: docs/query.md)."
    }
}

/// `--ignore-case` / `--case-sensitive`.
enum QueryCaseFlag: String, EnumerableFlag {
    case ignoreCase, caseSensitive

    static func name(for value: QueryCaseFlag) -> NameSpecification {
        value == .ignoreCase ? [.customShort("i"), .long] : .long
    }

    static func help(for value: QueryCaseFlag) -> ArgumentHelp? {
        value == .ignoreCase ? "Match regardless of letter case." : "Match letter case exactly (the default)."
    }
}
