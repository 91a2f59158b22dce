import ShipcheckCore

/// Checks a rule against its own examples (SwiftLint's idea): each triggering example must
/// report exactly at its `↓` markers (or at least once where it has none), each
/// non-triggering example must report nothing. Returns human-readable failures; empty means
/// the rule and its documentation agree.
package enum RuleExampleVerifier {
    /// `scan` runs the capability on one example (already unmarked) and returns its findings.
    package static func verify(_ rule: RuleDescription, scan: (RuleExample, String) throws -> [Finding]) rethrows
        -> [String]
    {
        var failures: [String] = []
        for example in rule.triggeringExamples {
            let (text, markers) = example.unmarked
            let findings = try scan(example, text).filter { $0.ruleID == rule.id }
            if markers.isEmpty {
                if findings.isEmpty { failures.append("\(rule.id): triggering example reported nothing:\n\(text)") }
                continue
            }
            let reported = findings.compactMap { finding -> String? in
                guard case .source(let location) = finding.location else { return nil }
                return "\(location.line):\(location.column)"
            }.sorted()
            let expected = markers.map { "\($0.line):\($0.column)" }.sorted()
            if reported != expected {
                failures.append("\(rule.id): expected findings at \(expected), got \(reported) in:\n\(text)")
            }
        }
        for example in rule.nonTriggeringExamples {
            let findings = try scan(example, example.unmarked.text).filter { $0.ruleID == rule.id }
            if !findings.isEmpty {
                let places = findings.map { "\($0.location.line ?? 0): \($0.message)" }
                failures.append("\(rule.id): non-triggering example reported \(places):\n\(example.text)")
            }
        }
        return failures
    }

    /// For checks that run on a folder: each example is written with its companions into a fresh
    /// temporary tree and `run` checks that tree. An example that does not read cleanly (any
    /// input error) is a failure too.
    package static func verify(_ rule: RuleDescription, onTree run: (String) -> CheckResult) -> [String] {
        var inputFailures: [String] = []
        let failures = verify(rule) { example, text in
            let tree = TemporaryDirectory("shipcheck-rule-example")
            for (path, companion) in example.companions { tree.write(path, companion) }
            tree.write(example.path, text)
            let result = run(tree.path)
            if !result.inputErrors.isEmpty {
                inputFailures.append("\(rule.id): input errors \(result.inputErrors) in:\n\(text)")
            }
            return result.findings
        }
        return failures + inputFailures
    }
}

extension RuleDescription {
    /// The rule with only the examples `keep` accepts: a rule checked in artifacts and in
    /// projects has examples of both, each run by its own check's tests.
    package func examples(where keep: (RuleExample) -> Bool) -> RuleDescription {
        var copy = self
        copy.triggeringExamples = triggeringExamples.filter(keep)
        copy.nonTriggeringExamples = nonTriggeringExamples.filter(keep)
        return copy
    }
}

extension RuleExample {
    /// An example in the bundle example text (`BundleContents(example:)`), at the default path;
    /// a project example names the file it pretends to be.
    package var isArtifactExample: Bool { path == RuleExample("").path }
}
