import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport

/// A report with one finding of each location kind and severity, and awkward characters in
/// paths and messages, so every reporter's escaping is exercised.
enum ReportFixtures {
    static let rules = [
        RuleDescription(
            id: "preview-outside-debug", summary: "Previews must be DEBUG-only.",
            rationale: "Archive builds drop Development Assets.", defaultSeverity: .error),
        RuleDescription(
            id: "conflict-marker", summary: "No conflict markers.", rationale: "Leftover markers break builds.",
            defaultSeverity: .error),
        RuleDescription(
            id: "preview-leak", summary: "No preview code in binaries.", rationale: "Preview code ships to users.",
            defaultSeverity: .warning)
    ]

    static func report(failingSeverity: Severity = .error, inputErrors: [InputError] = []) -> Report {
        Report(
            findings: finalized([
                Finding(
                    ruleID: "preview-outside-debug", severity: .error,
                    message: "#Preview compiled in release: 100%, ok: yes",
                    location: .source(
                        SourceLocation(
                            path: "App/Preview Content/View, a:b.swift", line: 12, column: 5, endLine: 14, endColumn: 2)
                    ),
                    snippet: "#Preview {\n    ContentView()\n}", fixHint: "wrap in #if DEBUG"),
                Finding(
                    ruleID: "conflict-marker", severity: .warning, message: "conflict block <<<<<<< HEAD\nsecond line",
                    location: .source(SourceLocation(path: "README.md", line: 3, column: 1))),
                Finding(
                    ruleID: "conflict-marker", severity: .warning, message: "conflict block <<<<<<< HEAD\nsecond line",
                    location: .source(SourceLocation(path: "README.md", line: 3, column: 1)), identity: "other block"),
                Finding(
                    ruleID: "preview-leak", severity: .note, message: "ContentView_Previews ships",
                    location: .binary(
                        BinaryLocation(
                            path: "build/App", member: nil, section: "swift5_protocol_conformances",
                            symbol: "$s3App20ContentView_PreviewsVMn", offset: 4096)))
            ]), inputErrors: inputErrors, rules: rules, failingSeverity: failingSeverity)
    }
}
