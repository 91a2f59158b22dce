import AndroidArtifacts
import BinaryInspect
import ConflictScan
import ReleaseDiff
import ScanEngine
import ShipcheckCore
import SourceScan

/// The library side of the command line: each subcommand parses its options and calls one
/// entry point here (swift-format's `Subcommands/` → `Frontend/` split), which runs the checks
/// and returns what to print and the exit code. Printing and exiting stay in the executable.
package enum Frontend {
    /// The configuration for a scan of `root` (see `ConfigurationLoader.load`), checked against
    /// every rule of the registry (its id, and the options the rule's entry may set) and every
    /// capability's settings. The caller prints its `deprecations`.
    package static func loadConfiguration(explicitPath: String?, root: String) throws(InputError) -> Configuration {
        try ConfigurationLoader.load(
            explicitPath: explicitPath, root: root, rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
    }

    /// `shipcheck conflicts`: one root (with operands relative to it) in one scope (`untracked`:
    /// the working tree's untracked files that are not ignored too).
    package static func conflicts(
        root: String, operands: [String], scope: ConflictScope, untracked: Bool = false, configuration: Configuration,
        failingSeverity: Severity
    ) -> CommandOutcome {
        let result = ConflictScanner(
            root: root, configuration: configuration, rules: RuleRegistry.rules, scope: scope, paths: operands,
            untracked: untracked
        ).run()
        return CommandOutcome(
            report: Report(
                findings: result.findings, inputErrors: result.inputErrors,
                rules: ConflictCheck.ownRules(among: RuleRegistry.rules).descriptions,
                failingSeverity: failingSeverity),
            notes: result.notes)
    }

    /// `shipcheck binary`: the files and directories given, else the configuration's `binaries`
    /// globs (relative to the current directory), expanded as the audit expands them; only the
    /// `architecture` slice of universal Mach-O files, when given.
    /// With a previous release (`previous`, else the configuration's `previous:`), the one
    /// artifact given is judged against it too (`checkedAgainstPrevious`).
    package static func binary(
        paths: [String], architecture: String? = nil, previous: String? = nil, configuration: Configuration,
        failingSeverity: Severity, progress: ScanProgress? = nil
    ) throws(UsageError) -> CommandOutcome {
        var targets = paths
        var expansionErrors: [InputError] = []
        if targets.isEmpty {
            let binaries = configuration.settings(ArtifactSettings.self).binaries
            guard !binaries.isEmpty else {
                throw UsageError(
                    "give binaries or directories, or list them under `binaries:` in \(Configuration.fileName)")
            }
            (targets, expansionErrors) = ArtifactPaths.expand(binaries, root: ".")
        }
        var inspector = artifactInspector(configuration: configuration, architecture: architecture)
        inspector.progress = progress
        let checked =
            checkedAgainstPrevious(
                targets, previous: previous, root: ".", configuration: configuration, architecture: architecture)
            ?? inspector.run(paths: targets)
        var result = checked.finalized(configuration: configuration)
        result.inputErrors = expansionErrors + result.inputErrors
        return CommandOutcome(
            report: Report(
                findings: result.findings, inputErrors: result.inputErrors,
                rules: artifactRules.descriptions, failingSeverity: failingSeverity))
    }

    /// The reader of release artifacts: Mach-O, ELF and Apple bundles, and Android's artifacts
    /// as a family of their own; opening files through `source`.
    static func artifactInspector(
        configuration: Configuration, architecture: String?, source: any FileSource = DiskFileSource()
    ) -> BinaryInspector {
        var inspector = BinaryInspector(
            configuration: configuration, rules: RuleRegistry.rules, architecture: architecture)
        inspector.families = [AndroidInspector(configuration: configuration, rules: RuleRegistry.rules)]
        inspector.source = source
        return inspector
    }

    /// The rules `shipcheck binary` runs (its reports' rule list).
    static var artifactRules: [any Rule.Type] {
        BinaryInspector.ownRules(among: RuleRegistry.rules) + AndroidInspector.ownRules(among: RuleRegistry.rules)
            + PreviousReleaseCheck.ownRules(among: RuleRegistry.rules)
    }
}

/// What an entry point hands back to its subcommand: the report to render (in the format the
/// user asked for) or text to print as is, notes for standard error, and the exit code.
package struct CommandOutcome: Sendable {
    package var report: Report?
    /// Printed to standard output as it is (a diff, a text listing).
    package var output: String?
    /// Lines for standard error, before the report (each prefixed with `shipcheck: `).
    package var messages: [String]
    /// The exit code when there is no report to take it from.
    package var exitCode: Int32
    /// Notes for standard error with `--explain`: what was left out of scope and why.
    package var explanations: [String]

    package init(
        report: Report? = nil, output: String? = nil, messages: [String] = [], notes: [InputError] = [],
        exitCode: Int32? = nil,
        explanations: [InputError] = []
    ) {
        self.report = report
        self.output = output
        self.messages = messages + notes.map(\.noteDescription)
        self.exitCode = exitCode ?? report?.exitCode ?? ExitStatus.clean
        self.explanations = explanations.map(\.noteDescription)
    }
}

/// A usage problem the subcommand reports as such (exit 2, with a pointer to `help`).
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
