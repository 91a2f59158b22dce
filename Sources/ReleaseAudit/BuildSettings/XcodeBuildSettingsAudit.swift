import ShipcheckCore
import XcodeProject

/// Audits the release configurations of Xcode projects (and XcodeGen specs) through their
/// stacked settings: project `.xcconfig`, project, target `.xcconfig` (with `#include`), target,
/// following `$(inherited)`. Each finding points at the assignment that introduced the problem,
/// and names every target and configuration it reaches.
public struct XcodeBuildSettingsAudit {
    public var debugOnlyFlags: Set<String>
    public var releaseConfigurations: ReleaseConfigurations

    public init(debugOnlyFlags: Set<String>, releaseConfigurations: ReleaseConfigurations) {
        self.debugOnlyFlags = debugOnlyFlags.union(["DEBUG"])
        self.releaseConfigurations = releaseConfigurations
    }

    /// One problem a setting can have: which key, which rule, and what in its words is wrong.
    struct Check: Sendable {
        var key: String
        var rule: RuleDescription
        /// The offending words of one assignment's own value (empty: fine).
        var offending: @Sendable (_ words: [String], _ debugFlags: Set<String>) -> [String]
        var message: @Sendable (_ found: String) -> String
        var fix: String
    }

    static let checks: [Check] = [
        Check(key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS", rule: BuildSettingRules.releaseDefinesDebug,
              offending: { words, flags in words.filter { flags.contains($0) } },
              message: { "\($0) is set in SWIFT_ACTIVE_COMPILATION_CONDITIONS: every #if \($0) block compiles into the shipping build" },
              fix: "remove it from the release configuration (keep it in Debug only)"),
        Check(key: "OTHER_SWIFT_FLAGS", rule: BuildSettingRules.releaseDefinesDebug,
              offending: { words, flags in
                  words.enumerated().compactMap { index, word in
                      if word.hasPrefix("-D"), word.count > 2, flags.contains(String(word.dropFirst(2))) { return word }
                      if word == "-D", index + 1 < words.count, flags.contains(words[index + 1]) { return "-D \(words[index + 1])" }
                      return nil
                  }
              },
              message: { "OTHER_SWIFT_FLAGS passes \($0): the condition is set in the shipping build" },
              fix: "remove the flag from the release configuration"),
        Check(key: "GCC_PREPROCESSOR_DEFINITIONS", rule: BuildSettingRules.releaseDebugPreprocessorMacro,
              offending: { words, flags in
                  words.filter { word in
                      let parts = word.split(separator: "=", maxSplits: 1)
                      guard let name = parts.first, flags.contains(String(name)) else { return false }
                      return parts.count == 1 || parts[1] != "0"
                  }
              },
              message: { "GCC_PREPROCESSOR_DEFINITIONS defines \($0) for C, Objective-C and C++ in the shipping build" },
              fix: "define it in the Debug configuration only"),
        Check(key: "SWIFT_OPTIMIZATION_LEVEL", rule: BuildSettingRules.releaseUnoptimized,
              offending: { words, _ in words.filter { $0 == "-Onone" } },
              message: { _ in "SWIFT_OPTIMIZATION_LEVEL is -Onone: the release build is unoptimised and keeps code the optimiser would remove" },
              fix: "use -O (or -Osize) for release"),
        Check(key: "GCC_OPTIMIZATION_LEVEL", rule: BuildSettingRules.releaseUnoptimized,
              offending: { words, _ in words.filter { $0 == "0" } },
              message: { _ in "GCC_OPTIMIZATION_LEVEL is 0: C-family code ships unoptimised" },
              fix: "use s (or 2/3) for release"),
        Check(key: "ENABLE_TESTABILITY", rule: BuildSettingRules.releaseTestability,
              offending: { words, _ in words.filter { $0.uppercased() == "YES" } },
              message: { _ in "ENABLE_TESTABILITY is YES: internal symbols are exported and access-control optimisations are off" },
              fix: "set ENABLE_TESTABILITY = NO for release"),
    ]

    /// The settings this audit reads, so the catalog can skip projects that set none of them.
    public static var checkedKeys: [String] { checks.map(\.key) }

    public func audit(_ catalog: XcodeSettingsCatalog) -> [Finding] {
        // One finding per offending assignment, naming every scope it reaches.
        var reached: [String: (finding: Finding, scopes: [String])] = [:]
        var order: [String] = []
        for scope in catalog.scopes where releaseConfigurations.isRelease(scope.configurationName) {
            // Project-level scopes matter only for projects without targets; targets inherit them.
            if scope.target == nil && !scope.project.targets.isEmpty { continue }
            for check in Self.checks {
                guard let resolved = scope.settings.resolve(check.key) else { continue }
                // Only what the effective value still holds can be a problem…
                guard !check.offending(resolved.words, debugOnlyFlags).isEmpty else { continue }
                // …and the assignment to blame is the last one that wrote it itself.
                for assignment in resolved.assignments.reversed() {
                    let own = BuildSettingWords.split(EffectiveBuildSettings.replacingInherited(in: assignment.value.text, with: ""))
                    guard let found = check.offending(own, debugOnlyFlags).first else { continue }
                    let key = "\(check.rule.id)\u{1F}\(assignment.file)\u{1F}\(assignment.line ?? 0)\u{1F}\(found)"
                    if reached[key] == nil {
                        let inherited = assignment.file != scope.project.file || scope.target.map { target in
                            !target.configurations.contains { $0.settings.contains(assignment) }
                        } ?? false
                        let finding = Finding(
                            ruleID: check.rule.id, severity: check.rule.defaultSeverity, message: check.message(found),
                            location: .source(SourceLocation(path: assignment.file, line: assignment.line ?? 1, column: assignment.column ?? 1)),
                            snippet: "\(check.key) = \(assignment.value.text)",
                            fixHint: check.fix + (inherited ? " (this assignment is inherited by the targets listed)" : ""),
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
