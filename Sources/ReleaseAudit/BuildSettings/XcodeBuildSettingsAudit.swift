import ShipcheckCore
import XcodeProject

/// Audits the release configurations of Xcode projects (and XcodeGen specs) through their
/// stacked settings: project `.xcconfig`, project, target `.xcconfig` (with `#include`), target,
/// following `$(inherited)`. Each finding points at the assignment that introduced the problem,
/// and names every target and configuration it reaches.
package struct XcodeBuildSettingsAudit: Sendable {
    package var debugOnlyFlags: Set<String>
    package var releaseConfigurations: ReleaseConfigurations

    package init(
        rules: [any BuildSettingRule.Type], debugOnlyFlags: Set<String>, releaseConfigurations: ReleaseConfigurations
    ) {
        checks = rules.flatMap { rule in rule.settingChecks.map { (rule, $0) } }
        self.debugOnlyFlags = debugOnlyFlags.union(["DEBUG"])
        self.releaseConfigurations = releaseConfigurations
    }

    /// The rules and the settings they check.
    private let checks: [(rule: any BuildSettingRule.Type, check: BuildSettingCheck)]

    /// The settings `rules` read, so the catalog can skip projects that set none of them.
    package static func keys(of rules: [any BuildSettingRule.Type]) -> [String] {
        rules.flatMap { $0.settingChecks.map(\.key) }
    }

    package func audit(_ catalog: XcodeSettingsCatalog.View) -> [Finding] {
        // One finding per offending assignment, naming every scope it reaches.
        var reached: [String: (finding: Finding, scopes: [String])] = [:]
        var order: [String] = []
        for scope in catalog.scopes where releaseConfigurations.isRelease(scope.configurationName) {
            // Project-level scopes matter only for projects without targets; targets inherit them.
            if scope.target == nil && !scope.project.targets.isEmpty { continue }
            for (rule, check) in checks {
                guard let resolved = scope.settings.resolve(check.key) else { continue }
                // Only what the effective value still holds can be a problem…
                guard !check.offending(resolved.words, debugOnlyFlags).isEmpty else { continue }
                // …and the assignment to blame is the last one that wrote it itself.
                for assignment in resolved.assignments.reversed() {
                    let own = BuildSettingWords.split(
                        EffectiveBuildSettings.replacingInherited(in: assignment.value.text, with: ""))
                    guard let found = check.offending(own, debugOnlyFlags).first else { continue }
                    let key = "\(rule.id)\u{1F}\(assignment.file)\u{1F}\(assignment.line ?? 0)\u{1F}\(found)"
                    if reached[key] == nil {
                        let inherited =
                            assignment.file != scope.project.file
                            || scope.target.map { target in
                                !target.configurations.contains { $0.settings.contains(assignment) }
                            } ?? false
                        let finding = Finding(
                            ruleID: rule.id, severity: rule.description.defaultSeverity, message: check.message(found),
                            location: .source(
                                SourceLocation(
                                    path: assignment.file, line: assignment.line ?? 1, column: assignment.column ?? 1)),
                            snippet: "\(check.key) = \(assignment.value.text)",
                            fixHint: check.fix
                                + (inherited ? " (this assignment is inherited by the targets listed)" : ""),
                            identity: "\(check.key) \(found) \(assignment.file)")
                        reached[key] = (finding, [])
                        order.append(key)
                    }
                    reached[key]!.scopes.append(scope.label)
                    break
                }
            }
        }
        return order.map { key in
            var (finding, scopes) = reached[key]!
            finding.message += " (\(scopes.joined(separator: "; ")))"
            return finding
        }
    }
}
