/// GitLab code quality report: a JSON array of issues with unique fingerprints, which GitLab
/// shows in merge request widgets and diffs.
package struct GitLabReporter: Reporter {
    package init() {}

    package func write(_ report: Report, to sink: ReportSink) {
        var seen: Set<String> = []
        func issue(
            description: String, checkName: String, fingerprint: String, severity: String, path: String, line: Int
        )
            -> String
        {
            var unique = fingerprint, counter = 1
            while seen.contains(unique) {
                counter += 1
                unique = StableHash.hex128(fingerprint + "#\(counter)")
            }
            seen.insert(unique)
            return JSONValue.object([
                "type": .string("issue"),
                "description": .string(description),
                "check_name": .string(checkName),
                "fingerprint": .string(unique),
                "severity": .string(severity),
                "location": .object(["path": .string(path), "lines": .object(["begin": .number(Double(line))])])
            ]).serialized()
        }
        let findings = report.findings, errors = report.inputErrors
        func element(_ index: Int) -> String {
            guard index < findings.count else {
                let error = errors[index - findings.count]
                return issue(
                    description: error.message, checkName: "input-error",
                    fingerprint: StableHash.hex128("input-error\u{1F}\(error.path)\u{1F}\(error.message)"),
                    severity: "blocker", path: error.path, line: error.line ?? 1)
            }
            let finding = findings[index]
            let severity: String
            switch finding.severity {
            case .error: severity = "critical"
            case .warning: severity = "major"
            case .note: severity = "info"
            }
            return issue(
                description: finding.message, checkName: finding.ruleID, fingerprint: finding.fingerprint,
                severity: severity, path: finding.location.path, line: finding.location.line ?? 1)
        }
        JSONOutline.elements(count: findings.count + errors.count, element: element).write(to: sink)
    }
}
