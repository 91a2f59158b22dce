import ShipcheckCore

/// Checks a rule against its own examples (SwiftLint's idea): each triggering example must
/// report exactly one finding per `↓` marker, at the marker's place and with its severity (an
/// example without markers is a failure), each non-triggering example nothing. Returns
/// human-readable failures; empty means the rule and its documentation agree.
package enum RuleExampleVerifier {
    /// What scanning one example gave: the findings and, for a line-oriented artifact example,
    /// the places its parser recorded (nil: findings are at source locations).
    package struct Scanned {
        package var findings: [Finding]
        package var places: ExamplePlaces?

        package init(_ findings: [Finding], places: ExamplePlaces? = nil) {
            self.findings = findings
            self.places = places
        }
    }

    /// `scan` runs the capability on one example (already unmarked) and returns its findings.
    package static func verify(_ rule: RuleDescription, scan: (RuleExample, String) throws -> [Finding]) rethrows
        -> [String]
    {
        try verifyWithPlaces(rule) { example, text in Scanned(try scan(example, text)) }
    }

    /// `scan` parses and runs one example (already unmarked), returning its findings and the
    /// places the example's lines declare.
    package static func verifyWithPlaces(_ rule: RuleDescription, scan: (RuleExample, String) throws -> Scanned)
        rethrows -> [String]
    {
        var failures: [String] = []
        if rule.triggeringExamples.isEmpty { failures.append("\(rule.id): no triggering example") }
        if rule.nonTriggeringExamples.isEmpty { failures.append("\(rule.id): no non-triggering example") }
        return try failures + verifySome(rule, scan: scan).failures
    }

    /// As `verifyWithPlaces`, for a test that judges some of a rule's examples (those of one
    /// platform, say): `scan` returns nil for an example it does not judge. `judged` counts the
    /// examples it did, so the caller can fail a test that judged none.
    package static func verifySome(_ rule: RuleDescription, scan: (RuleExample, String) throws -> Scanned?)
        rethrows -> (failures: [String], judged: Int)
    {
        var failures: [String] = []
        var judged = 0
        for example in rule.triggeringExamples {
            let text: String, markers: [RuleExample.Marker]
            do {
                (text, markers) = try example.unmarked
            } catch {
                failures.append("\(rule.id): \(error) in:\n\(example.text)")
                continue
            }
            guard !markers.isEmpty else {
                failures.append("\(rule.id): a triggering example without a ↓ marker:\n\(text)")
                continue
            }
            guard let scanned = try scan(example, text) else { continue }
            judged += 1
            let findings = scanned.findings.filter { $0.ruleID == rule.id }
            failures += compare(
                findings, with: markers, places: scanned.places, rule: rule, example: example, text: text)
        }
        for example in rule.nonTriggeringExamples {
            let text: String
            do {
                text = try example.unmarked.text
            } catch {
                failures.append("\(rule.id): \(error) in:\n\(example.text)")
                continue
            }
            guard let scanned = try scan(example, text) else { continue }
            judged += 1
            let findings = scanned.findings.filter { $0.ruleID == rule.id }
            if !findings.isEmpty {
                let places = findings.map { "\($0.location.line ?? 0): \($0.message)" }
                failures.append("\(rule.id): non-triggering example reported \(places):\n\(example.text)")
            }
        }
        return (failures, judged)
    }

    /// Pairs each finding with a marker at its place and of its severity; what stays unpaired on
    /// either side is a failure.
    private static func compare(
        _ findings: [Finding], with markers: [RuleExample.Marker], places: ExamplePlaces?, rule: RuleDescription,
        example: RuleExample, text: String
    ) -> [String] {
        var failures: [String] = []
        if places != nil, let inside = markers.first(where: { $0.column != 1 }) {
            failures.append("\(rule.id): marker at \(inside) does not start its line in:\n\(text)")
        }
        var unmatched = markers
        var unexpected: [String] = []
        for finding in findings {
            let lines: [Int], column: Int?
            switch (finding.location, places) {
            case (.source(let location), nil): (lines, column) = ([location.line], location.column)
            case (.file(let path), nil):
                // A finding about a whole file: the example's own file (or the folder holding
                // it) is its first line; a file the example lists, the lines that name it.
                let folder = path.hasSuffix("/") ? path : path + "/"
                let isExampleFile = path == example.path || example.path.hasPrefix(folder)
                let naming = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.element.contains(path) }.map { $0.offset + 1 }
                (lines, column) = (isExampleFile ? [1] : naming, 1)
            case (_, let places?): (lines, column) = (places.lines(of: finding.location), 1)
            default: (lines, column) = ([], nil)
            }
            let index = unmatched.firstIndex { marker in
                lines.contains(marker.line) && (column == nil || marker.column == column)
                    && (marker.severity ?? rule.defaultSeverity) == finding.severity
            }
            if let index {
                unmatched.remove(at: index)
            } else {
                let place = column.map { column in lines.map { "\($0):\(column)" }.joined(separator: " or ") } ?? ""
                unexpected.append(
                    "\(finding.severity.rawValue) at \(place.isEmpty ? "\(finding.location)" : place): \(finding.message)"
                )
            }
        }
        if !unexpected.isEmpty || !unmatched.isEmpty {
            failures.append(
                "\(rule.id): \(findings.count) findings for \(markers.count) markers; no marker for "
                    + "\(unexpected), no finding for markers \(unmatched.map(\.description)) in:\n\(text)")
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
