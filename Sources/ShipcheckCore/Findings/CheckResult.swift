import ScanEngine

/// What one capability's run produced. Each capability exposes a library entry point that
/// returns this (the CLI subcommand is a thin wrapper), so `shipcheck audit` can run them
/// all and merge the results into one report.
package struct CheckResult: Sendable {
    package var findings: [Finding]
    package var inputErrors: [InputError]
    /// Files (or artifacts) the check read.
    package var filesScanned: Int
    /// What the user should know about an input besides, printed as notes (see
    /// `InputError.noteDescription`); they never change the exit code.
    package var notes: [InputError]
    /// Files the check left out of some rules' scope and why (test code), printed as notes
    /// only with `--explain`.
    package var explanations: [InputError]

    package init(
        findings: [Finding] = [], inputErrors: [InputError] = [], filesScanned: Int = 0, notes: [InputError] = [],
        explanations: [InputError] = []
    ) {
        self.findings = findings
        self.inputErrors = inputErrors
        self.filesScanned = filesScanned
        self.notes = notes
        self.explanations = explanations
    }

    package mutating func merge(_ other: CheckResult) {
        findings += other.findings
        inputErrors += other.inputErrors
        filesScanned += other.filesScanned
        notes += other.notes
        explanations += other.explanations
    }

    /// The summary row for the audit table.
    package func summary(name: String, seconds: Double) -> CheckSummary {
        CheckSummary(
            name: name, filesScanned: filesScanned,
            errors: findings.filter { $0.severity == .error }.count,
            warnings: findings.filter { $0.severity == .warning }.count,
            notes: findings.filter { $0.severity == .note }.count,
            seconds: seconds)
    }
}

extension CheckResult {
    /// The one place a check's findings are made ready for a report: the severities the
    /// configuration sets (a rule turned off reports nothing), then fingerprints.
    package func finalized(configuration: Configuration) -> CheckResult {
        var result = self
        result.findings = configuration.applyingSeverities(to: findings)
        Fingerprinter.assign(&result.findings)
        return result
    }
}
