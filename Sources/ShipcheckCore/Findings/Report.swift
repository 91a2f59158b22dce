import ScanEngine

/// Everything one run produced, handed to a reporter. Its findings come finalized (fingerprinted
/// by `CheckResult.finalized`, or by a saved query's byte path that gives the same values) and it
/// puts them in reading order: the one order every format prints.
package struct Report: Sendable {
    package static let toolName = "shipcheck"
    package static let toolVersion = "0.1.0"
    package static let informationURI = "https://github.com/shipcheck/shipcheck"

    package var findings: [Finding]
    package var inputErrors: [InputError]
    /// Every rule that could have reported, so SARIF `tool.driver.rules` is complete.
    package var rules: [RuleDescription]
    /// Per-check summary rows (audit prints them as a table); empty for single checks.
    package var checks: [CheckSummary]
    /// Severity at or above which a finding fails the gate (`--strict` lowers it to warning).
    package var failingSeverity: Severity
    /// What fails the run besides its findings (a stale baseline under `--baseline-strict`).
    package var failures: [String]

    package init(
        findings: [Finding],
        inputErrors: [InputError] = [],
        rules: [RuleDescription] = [],
        checks: [CheckSummary] = [],
        failingSeverity: Severity = .error,
        failures: [String] = []
    ) {
        assert(
            findings.allSatisfy { !$0.fingerprint.isEmpty },
            "a report takes finalized findings (CheckResult.finalized fingerprints them)")
        self.findings = findings.sorted(by: Finding.readingOrder)
        self.inputErrors = inputErrors
        self.rules = rules
        self.checks = checks
        self.failingSeverity = failingSeverity
        self.failures = failures
    }

    /// 2 when any input could not be processed, else 1 when a finding (or one of `failures`)
    /// fails the gate, else 0.
    package var exitCode: Int32 {
        ExitStatus.of(
            inputErrors: !inputErrors.isEmpty,
            failsGate: !failures.isEmpty || findings.contains(where: { $0.severity >= failingSeverity }))
    }

    package func count(of severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }
}

/// The exit codes every subcommand uses, and the one function that picks among them.
package enum ExitStatus {
    package static let clean: Int32 = 0
    package static let findings: Int32 = 1
    package static let inputError: Int32 = 2

    /// 2 when an input could not be processed (whatever else was found), else 1 when something
    /// fails the gate, else 0.
    package static func of(inputErrors: Bool, failsGate: Bool) -> Int32 {
        inputErrors ? inputError : failsGate ? findings : clean
    }
}

/// One row of the audit summary: a check, what it looked at and what it found.
package struct CheckSummary: Codable, Sendable, Hashable {
    package var name: String
    package var filesScanned: Int
    package var errors: Int
    package var warnings: Int
    package var notes: Int
    package var seconds: Double

    package init(name: String, filesScanned: Int, errors: Int, warnings: Int, notes: Int, seconds: Double) {
        self.name = name
        self.filesScanned = filesScanned
        self.errors = errors
        self.warnings = warnings
        self.notes = notes
        self.seconds = seconds
    }
}
