import ScanEngine

/// A scan as the commands run it: the engine's read pass (`ReadPass`: one listing, each file
/// read once for every check, facts answered at the end), then each check's findings, with the
/// configuration's severities and fingerprints. `shipcheck audit` runs all its checks in one
/// scan; `sources`, `conflicts` and `query run` run theirs the same way.
package struct ScanPipeline: Sendable {
    package let configuration: Configuration
    private let readPass: ReadPass

    package init(
        root: String, configuration: Configuration, source: any FileSource = DiskFileSource(),
        checksListedKinds: Bool = true, progress: ScanProgress? = nil, cache: ResultCache? = nil
    ) {
        self.configuration = configuration
        readPass = ReadPass(
            root: root, scope: configuration.scope, source: source, checksListedKinds: checksListedKinds,
            progress: progress, results: cache)
    }

    package func run(_ checks: [any FileCheck]) -> ScanOutcome {
        let pass = readPass.run(checks)
        let progress = readPass.progress
        progress?.begin("finishing checks", total: checks.count)
        let results = zip(checks, pass.clocks).map { check, clock in
            defer { progress?.advance() }
            let result = clock.measure { check.finish() }.finalized(configuration: configuration)
            return CheckRun(name: check.name, result: result, seconds: clock.seconds)
        }
        // After the finish: a check may build what reports a problem only then (the project model).
        return ScanOutcome(checks: results, inputErrors: pass.inputErrors + pass.context.reportedErrors)
    }
}

/// What a scan produced: each check's result and the inputs that could not be taken.
package struct ScanOutcome: Sendable {
    /// In the order the checks were given.
    package var checks: [CheckRun]
    /// Unlisted or unreadable inputs, each reported once whichever checks wanted it.
    package var inputErrors: [InputError]

    /// Every check's findings (finalized, in no particular order: a `Report` orders them) and
    /// files together, with the scan's input errors.
    package var combined: CheckResult {
        var result = CheckResult(inputErrors: inputErrors)
        for run in checks { result.merge(run.result) }
        return result
    }
}

/// One check's result in a scan, and the time spent in it (its own work, summed over threads;
/// reading the files is shared and not counted).
package struct CheckRun: Sendable {
    package var name: String
    package var result: CheckResult
    package var seconds: Double

    package init(name: String, result: CheckResult, seconds: Double) {
        self.name = name
        self.result = result
        self.seconds = seconds
    }

    package var summary: CheckSummary { result.summary(name: name, seconds: seconds) }
}
