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

    /// The stores, with the configuration for the root (`explicitConfig`, else its
    /// `.shipcheck.yml`); a deprecated key is a note on standard error.
    func stores(explicitConfig: String?) throws(InputError) -> QueryStores {
        let configuration = try Frontend.loadConfiguration(explicitPath: explicitConfig, root: root)
        for deprecation in configuration.deprecations { printError("shipcheck: \(deprecation)") }
        return QueryStores(root: root, configuration: configuration, personal: personal)
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
