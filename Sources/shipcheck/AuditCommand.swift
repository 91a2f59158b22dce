import ArgumentParser
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Run every check as one release gate with one report and one exit code.",
        discussion: """
            Runs, on PATH (default: the current directory): the source scanner (previews and \
            Development Assets code outside #if DEBUG), the conflict-marker finder, every saved \
            query with `expect: none`, the build-settings audit (DEBUG, -Onone, testability, \
            bitcode and dwarf without dSYM in release configurations of project.pbxproj, \
            .xcconfig and Package.swift files), the archive-breaker check (release code naming \
            declarations that exist only in DEBUG or Development Assets), the privacy \
            declarations of app targets (required reason APIs their sources call against their \
            PrivacyInfo.xcprivacy, purpose-string APIs against their Info.plist, every privacy \
            manifest validated) and the binary inspector on the artifacts named by `binaries:` in \
            .shipcheck.yml or --binary (with the App Store pre-flight rules on Apple bundles, .ipa \
            and .xcarchive files: docs/preflight.md), judged against the previous release with \
            --previous PATH or previous: in .shipcheck.yml (docs/diff.md). \
            The text report ends with a table of files, findings and time per check.

            Baselines let an existing app adopt the gate: --write-baseline FILE records today's \
            findings (by fingerprint, sorted, written atomically) without printing them and exits \
            0 unless an input failed; over an existing baseline it keeps the file's order and \
            prints each entry it added (+) and dropped (-). Later runs with --baseline FILE report \
            only findings that are not in it and say how many recorded findings no longer occur \
            (fixed); --baseline-strict makes those fail the run (exit 1), so the baseline cannot \
            silently grow stale.

            Exit codes: 0 nothing at or above the failing severity, 1 findings that fail the gate, \
            2 usage, configuration or input error.
            """
    )

    @OptionGroup var report: ReportOptions

    @OptionGroup(title: "Result cache") var cache: CacheOptions

    @Option(
        name: .customLong("binary"),
        help: ArgumentHelp(
            "A release artifact to inspect, besides the configuration's binaries (repeatable).", valueName: "path"))
    var binaries: [String] = []

    @Option(
        help: ArgumentHelp(
            "Check only this slice of universal Mach-O artifacts (arm64, arm64_32, x86_64, armv7k…).", valueName: "arch"
        ))
    var arch: String?

    @Option(
        help: ArgumentHelp(
            "The previous release's artifact: the release artifact (exactly one) is judged against it too, with the previous-release rules (docs/diff.md); default: previous: in .shipcheck.yml.",
            valueName: "path"))
    var previous: String?

    @Option(help: ArgumentHelp("Report only findings not recorded in this baseline file.", valueName: "file"))
    var baseline: String?

    @Flag(
        help:
            "With --baseline: fail (exit 1) when the baseline holds findings that no longer occur, until it is rewritten."
    )
    var baselineStrict = false

    @Option(
        help: ArgumentHelp(
            "Record the current findings as the baseline in FILE (updating it if it exists) and exit 0.",
            valueName: "file"))
    var writeBaseline: String?

    func validate() throws {
        if baselineStrict && baseline == nil { throw ValidationError("--baseline-strict needs --baseline FILE") }
    }

    @Argument(help: "The repository or folder to audit.")
    var path: String = "."

    func run() throws {
        // git lists the files while the configuration, the queries and the project load.
        let source = DiskFileSource(startedListing: GitListing.start(directory: path, untracked: true))
        let line = ProgressLine("shipcheck audit")
        let outcome: CommandOutcome
        do {
            defer { line.finish() }
            outcome = try Frontend.audit(
                root: path, config: report.config, extraBinaries: binaries, architecture: arch, previous: previous,
                baseline: baseline,
                baselineStrict: baselineStrict, writeBaseline: writeBaseline, failingSeverity: report.failingSeverity,
                source: source, cache: cache.choice, progress: line.progress)
        }
        try report.emit(outcome)
    }
}
