import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend
import SourceScan

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Check that every SwiftUI preview and Development Assets file is compiled only when DEBUG is set.",
        discussion: """
            Reports #Preview macros and PreviewProvider / PreviewModifier types that a release build \
            compiles, Swift files in Development Assets (DEVELOPMENT_ASSET_PATHS, development-paths) \
            with declarations outside #if DEBUG, and DEVELOPMENT_ASSET_PATHS entries that do not exist; \
            and the run-time bugs that compile cleanly: a @State / @StateObject model built in a \
            view's init (state-built-in-init), a DynamicProperty or View storing a closure that \
            captures self in init (dynamic-property-captures-self), and non-@Sendable closures \
            stored in @unchecked Sendable types (unchecked-sendable-closure).

            --fix wraps each unwrapped preview in #if DEBUG … #endif and moves a plain construction \
            into StateObject(wrappedValue:)'s autoclosure, then reports what is left; --fix --dry-run \
            prints the changes as a unified diff instead, where the report would go (exit 1 when there are changes, 0 when \
            none, 2 on input errors).
            """
    )

    @OptionGroup var report: ReportOptions

    @OptionGroup(title: "Result cache") var cache: CacheOptions

    @OptionGroup(title: "Build steps") var buildStep: BuildStepOptions

    @Flag(
        help:
            "Wrap unwrapped previews in #if DEBUG … #endif and move plain constructions into StateObject(wrappedValue:), then report what is left."
    )
    var fix = false

    @Flag(help: "With --fix: print the changes as a unified diff and write nothing.")
    var dryRun = false

    @Option(
        help: ArgumentHelp(
            "Diagnostic: parse only the declarations the rules ask for (cut, the default) or whole files; --explain then says how each file was parsed.",
            visibility: .hidden))
    var parse: SourceParsing.Mode?

    @Argument(help: "Files or directories to check (default: the current directory).")
    var paths: [String] = []

    func validate() throws {
        if dryRun && !fix { throw ValidationError("--dry-run only applies to --fix") }
        if buildStep.lenient && report.strict { throw ValidationError("--lenient and --strict contradict each other") }
    }

    func run() throws {
        let roots = try (paths.isEmpty ? ["."] : paths).map { root in (root, try report.loadConfiguration(root: root)) }
        try report.emit(
            Frontend.sources(
                roots, fix: fix, dryRun: dryRun, buildStep: buildStep.mode, cache: cache.choice,
                failingSeverity: report.failingSeverity,
                parsing: SourceParsing(mode: parse ?? .cut, explains: parse != nil)))
    }
}

extension SourceParsing.Mode: ExpressibleByArgument {}
