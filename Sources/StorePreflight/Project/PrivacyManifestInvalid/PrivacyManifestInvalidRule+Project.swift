import ShipcheckCore

/// `preflight-privacy-manifest-invalid` in a project: every `PrivacyInfo.xcprivacy` of the tree.
extension PrivacyManifestInvalidRule: PrivacyProjectRule {
    static let projectInputs: PrivacyProjectInputs = [.manifests]

    static func findings(in manifest: PrivacyManifest, at path: String) -> [Finding] {
        manifest.problems.map { problem in
            Finding(
                ruleID: id, severity: description.defaultSeverity,
                message:
                    "\(problem): App Store Connect refuses privacy manifests whose keys and values are not valid (ITMS-91056)",
                location: .file(path: path), snippet: nil,
                fixHint: "correct it against Apple's keys and reasons (docs/preflight.md lists them)",
                identity: problem)
        }
    }
}
