/// Everything one run produced, handed to a reporter.
public struct Report: Sendable {
    public static let toolName = "shipcheck"
    public static let toolVersion = "0.1.0"
    public static let informationURI = "https://github.com/shipcheck/shipcheck"

    public var findings: [Finding]
    public var inputErrors: [InputError]
    /// Every rule that could have reported, so SARIF `tool.driver.rules` is complete.
    public var rules: [RuleDescription]
    /// Per-check summary rows (audit prints them as a table); empty for single checks.
    public var checks: [CheckSummary]
    /// Severity at or above which a finding fails the gate (`--strict` lowers it to warning).
    public var failingSeverity: Severity
    /// What fails the run besides its findings (a stale baseline under `--baseline-strict`).
    public var failures: [String]

    public init(
        findings: [Finding],
        inputErrors: [InputError] = [],
        rules: [RuleDescription] = [],
        checks: [CheckSummary] = [],
        failingSeverity: Severity = .error,
        failures: [String] = []
    ) {
        var findings = findings
        // Fingerprints given earlier (a baseline comparison needs them before filtering) stay.
        if findings.contains(where: { $0.fingerprint.isEmpty }) { Fingerprinter.assign(&findings) }
        self.findings = findings.sorted(by: Finding.readingOrder)
        self.inputErrors = inputErrors
        self.rules = rules
        self.checks = checks
        self.failingSeverity = failingSeverity
        self.failures = failures
    }

    /// 2 when any input could not be processed, else 1 when a finding (or one of `failures`)
    /// fails the gate, else 0.
    public var exitCode: Int32 {
        if !inputErrors.isEmpty { return ExitStatus.inputError }
        if !failures.isEmpty || findings.contains(where: { $0.severity >= failingSeverity }) {
            return ExitStatus.findings
        }
        return ExitStatus.clean
    }

    public func count(of severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }
}

/// The exit codes every subcommand uses.
public enum ExitStatus {
    public static let clean: Int32 = 0
    public static let findings: Int32 = 1
    public static let inputError: Int32 = 2
}

/// One row of the audit summary: a check, what it looked at and what it found.
public struct CheckSummary: Codable, Sendable, Hashable {
    public var name: String
    public var filesScanned: Int
    public var errors: Int
    public var warnings: Int
    public var notes: Int
    public var seconds: Double

    public init(name: String, filesScanned: Int, errors: Int, warnings: Int, notes: Int, seconds: Double) {
        self.name = name
        self.filesScanned = filesScanned
        self.errors = errors
        self.warnings = warnings
        self.notes = notes
        self.seconds = seconds
    }
}
