/// GitLab code quality report: a JSON array of issues with unique fingerprints, which GitLab
/// shows in merge request widgets and diffs.
package struct GitLabReporter: Reporter {
    package init() {}

    package func render(_ report: Report) -> String {
        var seen: Set<String> = []
        var issues: [JSONValue] = []
        func add(description: String, checkName: String, fingerprint: String, severity: String, path: String, line: Int)
        {
            var unique = fingerprint, counter = 1
            while seen.contains(unique) {
                counter += 1
                unique = StableHash.hex128(fingerprint + "#\(counter)")
            }
            seen.insert(unique)
            issues.append(
                .object([
                    "type": .string("issue"),
                    "description": .string(description),
                    "check_name": .string(checkName),
                    "fingerprint": .string(unique),
                    "severity": .string(severity),
                    "location": .object(["path": .string(path), "lines": .object(["begin": .number(Double(line))])])
                ]))
        }
        for finding in report.findings {
            let severity: String
            switch finding.severity {
            case .error: severity = "critical"
            case .warning: severity = "major"
            case .note: severity = "info"
            }
            add(
                description: finding.message, checkName: finding.ruleID, fingerprint: finding.fingerprint,
                severity: severity, path: finding.location.path, line: finding.location.line ?? 1)
        }
        for error in report.inputErrors {
            add(
                description: error.message, checkName: "input-error",
                fingerprint: StableHash.hex128("input-error\u{1F}\(error.path)\u{1F}\(error.message)"),
                severity: "blocker", path: error.path, line: error.line ?? 1)
        }
        return JSONValue.array(issues).serialized() + "\n"
    }
}
