import ShipcheckCore

/// A rule about a bundle as a whole (its files, signing and profiles), beside the leak rules
/// that run on each binary inside it: documentation with examples (which are its tests) and a
/// check over decoded `BundleContents` only. Package access: the store's rules live in
/// StorePreflight, with their data (and a rule that also reads projects in one folder with all
/// its checks), and conform there.
package protocol BundleRule: Rule {
    static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding]
    /// Whether the rule also reads a single Mach-O file given on its own (a `BundleContents` of
    /// kind `.binary`: one image, no bundle), because the fact it checks lives in the file.
    static var checksSingleBinaries: Bool { get }
}

extension BundleRule {
    package static var checksSingleBinaries: Bool { false }
}

/// What a bundle rule needs beyond the bundle: its severity (the rule's default: the
/// configuration's is applied to every check's findings in one place) and the run's
/// configuration, where a rule with options finds its own (`Configuration.options(for:)`).
package struct BundleRuleContext {
    package var severity: Severity
    package var configuration: Configuration
}

extension BundleContents {
    /// Signing says something about the shipped build only where it is final (not in an
    /// `.xcarchive`, which export re-signs) and the artifact is not meant for development.
    var signingIsChecked: Bool { kind.hasFinalSigning && distribution.method != .development }
}

extension RuleInput {
    package static let bundle = RuleInput("bundle")
}

extension BundleRule {
    package static var inputs: Set<RuleInput> { [.bundle] }
}
