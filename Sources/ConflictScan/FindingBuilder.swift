import ShipcheckCore

/// Turns what a scan saw into findings, applying the configuration's rule severities
/// (a disabled rule reports nothing) and inline ignore directives.
struct FindingBuilder: Sendable {
    let configuration: Configuration

    private func severity(_ rule: RuleDescription) -> Severity? { configuration.severity(for: rule) }

    func findings(for content: ContentConflicts, path: String) -> [Finding] {
        var findings: [Finding] = []
        if let severity = severity(ConflictMarkerRule.description) {
            for block in content.blocks where !block.isIgnored {
                findings.append(ConflictMarkerRule.finding(block, path: path, severity: severity))
            }
        }
        if let severity = severity(ConflictMarkerRemnantRule.description) {
            for remnant in content.remnants where !remnant.isIgnored {
                findings.append(ConflictMarkerRemnantRule.finding(remnant, path: path, severity: severity))
            }
        }
        return findings
    }

    /// Unmerged index entries, except paths whose markers were already reported as a block.
    func findings(forUnmerged entries: [String: Set<Int>], besides reported: [Finding]) -> [Finding] {
        guard let severity = severity(UnmergedPathRule.description) else { return [] }
        let withBlocks = Set(reported.filter { $0.ruleID == ConflictMarkerRule.id }.map(\.location.path))
        return entries.keys.sorted().filter { !withBlocks.contains($0) }.map {
            UnmergedPathRule.finding(path: $0, stages: entries[$0]!, severity: severity)
        }
    }

    func finding(for operation: GitOperation?) -> [Finding] {
        guard let operation, let severity = severity(MergeInProgressRule.description) else { return [] }
        return [MergeInProgressRule.finding(operation, severity: severity)]
    }
}
