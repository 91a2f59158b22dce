import ShipcheckCore

/// The project side of an App Store privacy rule: what it makes of each app target in each
/// release configuration (`AppTarget`: the APIs its sources use, the manifests in its resources,
/// its Info.plist) and of each privacy manifest of the tree. `PrivacyDeclarationsCheck` runs the
/// registry's rules of this kind: it gathers their inputs in the scan's one read pass, and the
/// rules judge. A rule answers only what it reads (the other requirement's default is none).
protocol PrivacyProjectRule: Rule {
    /// What the check reads for the rule (a file no rule on reads is not read).
    static var projectInputs: PrivacyProjectInputs { get }

    /// The findings about one app target in one release configuration.
    static func findings(in app: AppTarget) -> [Finding]

    /// The findings about one privacy manifest (`path`: relative to the scan's root).
    static func findings(in manifest: PrivacyManifest, at path: String) -> [Finding]
}

extension PrivacyProjectRule {
    static func findings(in app: AppTarget) -> [Finding] { [] }

    static func findings(in manifest: PrivacyManifest, at path: String) -> [Finding] { [] }
}

/// The files a privacy rule's project side reads.
struct PrivacyProjectInputs: OptionSet {
    let rawValue: Int

    /// The Swift and C-family sources of app targets: the APIs they use (`AppTarget.uses`).
    static let sources = PrivacyProjectInputs(rawValue: 1 << 0)
    /// Every `PrivacyInfo.xcprivacy` (an app target's own in `AppTarget.manifests`).
    static let manifests = PrivacyProjectInputs(rawValue: 1 << 1)
    /// Property lists, for an app target's Info.plist (`AppTarget.infoPlistLookup`).
    static let propertyLists = PrivacyProjectInputs(rawValue: 1 << 2)
}

extension RuleInput {
    package static let privacyProject = RuleInput("app target privacy")
}

extension PrivacyProjectRule {
    package static var inputs: Set<RuleInput> { [.privacyProject] }
}
