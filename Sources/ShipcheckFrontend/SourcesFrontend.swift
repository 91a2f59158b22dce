import ShipcheckCore
import SourceScan

extension Frontend {
    /// `shipcheck sources`: each root with its configuration; with `fix`, the unwrapped previews
    /// are wrapped first (with `dryRun`, only shown as a diff) and the report is a fresh scan
    /// of what is left.
    public static func sources(_ roots: [(root: String, configuration: Configuration)], fix: Bool, dryRun: Bool,
                               failingSeverity: Severity) -> CommandOutcome {
        let scanners = roots.map { SourceScanner(root: $0.root, configuration: $0.configuration, rules: RuleRegistry.rules) }
        var messages: [String] = []
        if fix {
            let results = scanners.map { $0.fix() }
            messages += results.flatMap(\.notFixed).map(\.noteDescription)
            if dryRun {
                let errors = results.flatMap(\.inputErrors)
                let exitCode = !errors.isEmpty ? ExitStatus.inputError : results.contains { !$0.fixes.isEmpty } ? ExitStatus.findings : ExitStatus.clean
                return CommandOutcome(output: results.flatMap(\.fixes).map(\.unifiedDiff).joined(),
                                      messages: messages + errors.map(\.description), exitCode: exitCode)
            }
            var wrapped = 0, files = 0
            for change in results.flatMap(\.fixes) {
                do {
                    try change.write()
                    wrapped += change.wrappedPreviews
                    files += 1
                } catch {
                    messages.append(error.description)
                }
            }
            if wrapped > 0 { messages.append("wrapped \(wrapped) preview\(wrapped == 1 ? "" : "s") in #if DEBUG in \(files) file\(files == 1 ? "" : "s")") }
        }
        // The report is always a fresh scan, so it shows exactly what is left after fixing.
        var combined = CheckResult()
        for scanner in scanners { combined.merge(scanner.run()) }
        return CommandOutcome(report: Report(findings: combined.findings, inputErrors: combined.inputErrors,
                                             rules: SourceRulesCheck.ownRules(among: RuleRegistry.rules).descriptions,
                                             failingSeverity: failingSeverity),
                              messages: messages, notes: combined.notes)
    }
}
