import BinaryInspect
import ConflictScan
import Dispatch
import SavedQueries
import ShipcheckCore
import SourceScan

/// `shipcheck audit`: every check on one root, merged into one report with one exit code.
public struct ReleaseGate: Sendable {
    /// One check of the gate: its name in the summary table and how to run it.
    public struct Check: Sendable {
        public var name: String
        public var run: @Sendable () -> CheckResult
    }

    public let root: String
    public let configuration: Configuration
    /// Artifacts named on the command line, besides the configuration's `binaries:` globs.
    public let extraBinaries: [String]
    /// Only this slice of universal Mach-O artifacts (`audit --arch`); nil: every slice.
    public var binaryArchitecture: String?

    public init(root: String, configuration: Configuration, extraBinaries: [String] = []) {
        self.root = root
        self.configuration = configuration
        self.extraBinaries = extraBinaries
    }

    public var checks: [Check] {
        let root = root, configuration = configuration, extraBinaries = extraBinaries, architecture = binaryArchitecture
        return [
            Check(name: "sources") { SourceScanner(root: root, configuration: configuration).run() },
            Check(name: "conflicts") { ConflictScanner(root: root, configuration: configuration).run() },
            Check(name: "saved queries") { SavedQueries.runGates(root: root, configuration: configuration) },
            Check(name: "build settings") { BuildSettingsCheck(root: root, configuration: configuration).run() },
            Check(name: "archive breakers") { ArchiveBreakerAnalysis(root: root, configuration: configuration).run() },
            Check(name: "binaries") {
                let expanded = ArtifactPaths.expand(configuration.binaries, root: root)
                let paths = expanded.paths + extraBinaries
                guard !paths.isEmpty else { return CheckResult(inputErrors: expanded.errors) }
                var result = BinaryInspector(configuration: configuration, architecture: architecture).run(paths: paths)
                for index in result.findings.indices { result.findings[index].location = result.findings[index].location.relative(to: root) }
                result.inputErrors += expanded.errors
                return result
            },
        ]
    }

    /// Runs every check in turn (each is parallel inside), telling `progress` which one starts.
    public func run(progress: (String) -> Void = { _ in }) -> (result: CheckResult, summaries: [CheckSummary]) {
        var total = CheckResult()
        var summaries: [CheckSummary] = []
        for check in checks {
            progress(check.name)
            let start = DispatchTime.now().uptimeNanoseconds
            let result = check.run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            summaries.append(result.summary(name: check.name, seconds: seconds))
            total.merge(result)
        }
        // Checks that read the same files report the same unreadable one; say it once.
        var seen: Set<InputError> = []
        total.inputErrors = total.inputErrors.filter { seen.insert($0).inserted }
        return (total, summaries)
    }
}
