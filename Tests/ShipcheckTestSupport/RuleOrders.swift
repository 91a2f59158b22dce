import ShipcheckCore

/// A check's findings must be a function of its input and the configuration, never of the
/// order its rules run in (one rule must not look at what another reported). Tests run a
/// check with its rules in the registry's order, reversed and shuffled (with a fixed seed),
/// and compare the findings.
package enum RuleOrders {
    /// `rules` in each order tried, with the order's name for failure messages.
    package static func variants(of rules: [any Rule.Type]) -> [(name: String, rules: [any Rule.Type])] {
        var generator = SeededGenerator(seed: 0x4F52_4445)
        return [
            ("registry order", rules), ("reversed", rules.reversed()), ("shuffled", rules.shuffled(using: &generator))
        ]
    }

    /// Runs `scan` with `rules` in every order and returns the registry order's findings; each
    /// order whose findings differ from those (as a multiset: the order findings are listed in
    /// is the reports' business) is described in `differences`.
    package static func findings(
        of rules: [any Rule.Type], differences: inout [String], _ scan: ([any Rule.Type]) throws -> [Finding]
    ) rethrows -> [Finding] {
        try run(rules, differences: &differences, scan, findings: { $0 })
    }

    /// As `findings(of:differences:_:)`, for a check that runs on a tree: the registry order's
    /// result (its input errors too) is the one returned.
    package static func result(
        of rules: [any Rule.Type], differences: inout [String], _ scan: ([any Rule.Type]) -> CheckResult
    ) -> CheckResult {
        run(rules, differences: &differences, scan, findings: \.findings)
    }

    private static func run<Scanned>(
        _ rules: [any Rule.Type], differences: inout [String], _ scan: ([any Rule.Type]) throws -> Scanned,
        findings: (Scanned) -> [Finding]
    ) rethrows -> Scanned {
        let orders = variants(of: rules)
        let first = try scan(orders[0].rules)
        let expected = findings(first)
        for (name, reordered) in orders.dropFirst() {
            let found = findings(try scan(reordered))
            guard counts(found) != counts(expected) else { continue }
            let missing = expected.filter { !found.contains($0) }.map(describe)
            let extra = found.filter { !expected.contains($0) }.map(describe)
            differences.append("rules \(name): missing \(missing), extra \(extra)")
        }
        return first
    }

    private static func counts(_ findings: [Finding]) -> [Finding: Int] {
        findings.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    private static func describe(_ finding: Finding) -> String { "\(finding.ruleID): \(finding.message)" }
}
