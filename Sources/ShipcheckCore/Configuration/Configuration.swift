import ScanEngine

/// The settings in `.shipcheck.yml`: those every capability shares are fields here; a rule's
/// options (`options(for:)`) and a capability's own settings (`settings(_:)`) are typed by their
/// owners. Unknown keys and wrong types are rejected by `ConfigurationLoader` with the file,
/// line and key.
package struct Configuration: Sendable {
    package static let fileName = ".shipcheck.yml"

    /// Where this configuration came from, or nil for the built-in defaults.
    package var sourcePath: String?
    /// A hash of the file's text, or empty for the defaults (see `resultKey`).
    package var textHash = ""
    /// What is listed and read (include / exclude globs, the size cap): `include`, `exclude`
    /// and `maxFileSize` below.
    package var scope = ScanScope()
    /// Per-rule severity override, or `nil` value to disable a rule.
    package var ruleSeverities: [String: Severity?] = [:]
    /// The options of the rules whose entries set some, by rule id (`options(for:)`).
    var ruleOptions: [String: any RuleOptions] = [:]
    /// The capabilities' settings the file sets, by their type (`settings(_:)`).
    var capabilitySettings: [ObjectIdentifier: any CapabilitySettings] = [:]
    /// What the file says in a way that still works but has moved (a former key), one line each
    /// with the file and line, for the commands to print as notes.
    package var deprecations: [String] = []
    /// Compilation conditions that are never set in release builds (treated like `DEBUG`).
    package var debugOnlyFlags: Set<String> = []
    /// Compilation conditions always set in release builds.
    package var releaseSetFlags: Set<String> = []
    /// Development-only paths in addition to Xcode's `DEVELOPMENT_ASSET_PATHS`.
    package var developmentPaths = GlobList([])
    /// Generated files besides those whose header says so (`GeneratedFiles`); a `!pattern`
    /// that decides about a file says it is not generated, whatever its header.
    package var generated = GlobList([])
    /// Rules that report in generated files too (by default the run-time source rules and the
    /// archive-breaker rule do not).
    package var checkGenerated: Set<String> = []
    /// Build configuration names treated as release (nil: Archive-action configurations and
    /// Release / Production / AppStore names).
    package var releaseConfigurations: [String]? = nil

    package init() {}

    /// Paths to scan (empty: everything); `!pattern` re-excludes.
    package var include: GlobList {
        get { scope.include }
        set { scope.include = newValue }
    }
    /// Paths never scanned by any check.
    package var exclude: GlobList {
        get { scope.exclude }
        set { scope.exclude = newValue }
    }
    /// Per-file size cap for text scanning, in bytes.
    package var maxFileSize: Int {
        get { scope.maxFileSize }
        set { scope.maxFileSize = newValue }
    }

    /// The severity a rule reports at, or nil when the configuration disables it.
    package func severity(for rule: RuleDescription) -> Severity? {
        if let override = ruleSeverities[rule.id] { return override }
        return rule.defaultSeverity
    }

    /// Whether the configuration leaves the rule on (a check may skip work for a rule that is off).
    package func isEnabled(_ rule: RuleDescription) -> Bool { severity(for: rule) != nil }

    /// Findings with the severities the configuration sets for their rules; findings of rules
    /// turned off are dropped, others keep the severity their check gave them (the rule's
    /// default, a saved query's own, or a note the rule lowered a finding to on evidence).
    package func applyingSeverities(to findings: [Finding]) -> [Finding] {
        guard !ruleSeverities.isEmpty else { return findings }
        return findings.compactMap { finding in
            guard let override = ruleSeverities[finding.ruleID] else { return finding }
            guard let severity = override else { return nil }
            guard !finding.isDowngraded else { return finding }
            var finding = finding
            finding.severity = severity
            return finding
        }
    }

    /// What a per-file result depends on in the configuration, for a result cache's keys: the
    /// file's text (any change to it is a new configuration, whatever it changes — a rule's
    /// options too) and the settings code may set besides.
    package var resultKey: String {
        [
            textHash, debugOnlyFlags.sorted().joined(separator: ","), releaseSetFlags.sorted().joined(separator: ","),
            developmentPaths.globs.map(\.pattern).joined(separator: ","),
            generated.globs.map(\.pattern).joined(separator: ","), checkGenerated.sorted().joined(separator: ","),
            ruleSeverities.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.map { "\($0)" } ?? "off")" }
                .joined(separator: ",")
        ].joined(separator: "\u{1F}")
    }

    /// Whether a path (relative to the root) is in the scanned set.
    package func isScanned(_ path: String) -> Bool { scope.isScanned(path) }
}
