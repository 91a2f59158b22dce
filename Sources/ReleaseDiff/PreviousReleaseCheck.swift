import BinaryInspect
import ShipcheckCore
import StorePreflight

/// Judges a release against the one before it: the previous-release rules on the comparison of
/// their facts, and the new release's own findings re-judged where Apple's words depend on the
/// previous release (a listed SDK kept from it). What `diff` reports, and what `binary` and
/// `audit` add to their report with `--previous`.
package struct PreviousReleaseCheck: Sendable {
    let configuration: Configuration
    let rules: [any PreviousReleaseRule.Type]

    /// `rules`: the registry's rules; the check runs the previous-release rules among them that
    /// the configuration leaves on.
    package init(configuration: Configuration, rules: [any Rule.Type]) {
        self.configuration = configuration
        self.rules = rules.reading(.previousRelease, as: (any PreviousReleaseRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
    }

    /// The rules among `rules` the check runs (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.inputs.contains(.previousRelease) }
    }

    /// The previous-release rules' findings about the new release, finalized.
    package func check(_ comparison: ReleaseComparison) -> [Finding] {
        let findings = rules.flatMap { rule in
            rule.check(
                comparison,
                PreviousReleaseContext(severity: rule.description.defaultSeverity, configuration: configuration))
        }
        return CheckResult(findings: findings).finalized(configuration: configuration).findings
    }

    /// The new release's own findings, with those about a listed SDK the previous release
    /// already shipped lowered to warnings: ITMS-91061 and ITMS-91065 apply to "a new app" and
    /// to "an app update [that] adds a new listed SDK", so App Store Connect takes an update
    /// that keeps one; each message says which case it is (docs/preflight.md).
    package static func rejudged(_ findings: [Finding], previous: ReleaseFacts) -> [Finding] {
        let kept = previous.sdks.filter(\.isListed).map(\.name)
        let name = previous.root.split(separator: "/").last.map(String.init) ?? previous.root
        return findings.map { finding in
            guard let sdk = ListedSDKFinding.sdk(of: finding) else { return finding }
            var judged = finding
            if kept.contains(sdk) {
                judged.severity = min(finding.severity, .warning)
                judged.message +=
                    "; but \(sdk) is kept from the previous release (\(name)), and Apple's rule names SDKs an update adds: App Store Connect takes the update for now"
            } else {
                judged.message += "; \(sdk) is added since the previous release (\(name))"
            }
            return judged
        }
    }
}

/// The listed SDK a finding of the SDK privacy-manifest or signature rule is about, read from
/// its identity (`… listed SDK Alamofire`, `… listed SDK Alamofire linked`, `… listed SDK
/// signature Alamofire`).
enum ListedSDKFinding {
    static func sdk(of finding: Finding) -> String? {
        guard finding.ruleID == SDKPrivacyManifestRule.id || finding.ruleID == SDKSignatureRule.id,
            let identity = finding.identity, let range = identity.range(of: "listed SDK ")
        else { return nil }
        var rest = identity[range.upperBound...]
        if rest.hasPrefix("signature ") { rest = rest.dropFirst("signature ".count) }
        if rest.hasSuffix(" linked") { rest = rest.dropLast(" linked".count) }
        return rest.isEmpty ? nil : String(rest)
    }
}

/// How a finding of one release is matched with the same finding of another: by rule, the file
/// inside the artifact, and its identity (or snippet), so renaming the artifact file
/// (`App-1.2.ipa` → `App-1.3.ipa`) or moving it changes nothing.
package enum FindingMatch {
    /// The findings of `new` that `old` has no match for, and those of `old` that `new` lost.
    package static func changes(old: [Finding], oldRoot: String, new: [Finding], newRoot: String) -> (
        appeared: [Finding], gone: [Finding]
    ) {
        var remaining: [String: Int] = [:]
        for finding in old { remaining[key(finding, root: oldRoot), default: 0] += 1 }
        var appeared: [Finding] = []
        for finding in new {
            let key = key(finding, root: newRoot)
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
            } else {
                appeared.append(finding)
            }
        }
        var gone: [Finding] = []
        for finding in old.reversed() {
            let key = key(finding, root: oldRoot)
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                gone.append(finding)
            }
        }
        return (appeared, gone.reversed())
    }

    static func key(_ finding: Finding, root: String) -> String {
        var path = finding.location.path
        if path == root { path = "" } else if path.hasPrefix(root + "/") { path.removeFirst(root.count + 1) }
        let identity = finding.identity ?? Fingerprinter.normalized(finding.snippet ?? finding.message)
        return [finding.ruleID, path, identity].joined(separator: "\u{1F}")
    }
}
