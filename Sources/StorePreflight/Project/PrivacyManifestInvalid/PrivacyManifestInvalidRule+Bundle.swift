import BinaryInspect
import ShipcheckCore

/// `preflight-privacy-manifest-invalid` in an artifact: every `*.xcprivacy` it holds.
extension PrivacyManifestInvalidRule: BundleRule {
    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.privacyManifests.keys.sorted().flatMap { path in
            BundleContents.read(bundle.privacyManifests[path]!).problems.map { problem in
                bundle.finding(
                    description, context.severity, at: path,
                    message:
                        "\(bundle.displayName(path)): \(problem): App Store Connect refuses privacy manifests whose keys and values are not valid (ITMS-91056 Invalid privacy manifest)",
                    fix:
                        "correct the manifest (or take a release of the SDK with a valid one); docs/preflight.md lists the categories and reasons",
                    identity: problem)
            }
        }
    }
}
