import ShipcheckCore

/// A rule that judges a release against the one before it (`shipcheck diff`, and `binary` /
/// `audit` with `--previous`): documentation with examples (pairs of artifact texts,
/// `ReleasePairExample`) and a check over the comparison of the two releases' facts. Its
/// findings are about the new release: they name its files.
package protocol PreviousReleaseRule: Rule {
    static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding]
}

/// What a previous-release rule needs beyond the comparison: its severity (the rule's default:
/// the configuration's is applied to every check's findings in one place) and the run's
/// configuration, where a rule with options finds its own.
package struct PreviousReleaseContext: Sendable {
    package var severity: Severity
    package var configuration: Configuration

    package init(severity: Severity, configuration: Configuration) {
        self.severity = severity
        self.configuration = configuration
    }
}

extension ReleaseComparison {
    /// A finding about a file of the new release (`inner` empty: the artifact itself).
    func finding(
        _ rule: RuleDescription, _ severity: Severity, at inner: String, message: String, fix: String, identity: String
    ) -> Finding {
        Finding(about: inner, in: new.root, rule, severity, message: message, fix: fix, identity: identity)
    }

    /// How messages name the previous release: its file name.
    var previousName: String { String(old.root.split(separator: "/").last ?? Substring(old.root)) }

    /// Both releases are uploads of the same app to a store, so its upload rules compare them.
    var isUpdateOfOneApp: Bool {
        old.isUpload && new.isUpload && old.identity.identifier != nil
            && old.identity.identifier == new.identity.identifier
    }
}

extension RuleInput {
    package static let previousRelease = RuleInput("previous release")
}

extension PreviousReleaseRule {
    package static var inputs: Set<RuleInput> { [.previousRelease] }
}
