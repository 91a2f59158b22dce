import BinaryInspect
import ShipcheckCore

/// `preflight-required-reason-api` in an artifact: each image's required reason APIs against
/// the privacy manifests of the app, extension or framework it belongs to.
extension RequiredReasonAPIRule: BundleRule {
    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        var findings: [Finding] = []
        for image in bundle.images {
            let apis = image.requiredReasonAPIs
            guard !apis.isEmpty, let owner = bundle.codeBundle(of: image.path), bundle.asksRequiredReasons(of: owner)
            else { continue }
            let manifests = bundle.privacyManifests(of: owner)
            let isApp = owner.role.isApplicationLike
            // Per category the image uses and no manifest of its bundle declares.
            var undeclared: [RequiredReasonCategory: [RequiredReasonAPIs.API]] = [:]
            for api in apis
            where !api.categories.contains(where: { category in
                manifests.contains { !$0.manifest.reasons(for: category, declaredByApp: isApp).isEmpty }
            }) {
                undeclared[api.categories[0], default: []].append(api)
            }
            for (category, used) in undeclared.sorted(by: { $0.key < $1.key }) {
                let names = used.map { $0.binary.description }
                let missing =
                    manifests.isEmpty
                    ? "\(bundle.displayName(owner.path)) has no PrivacyInfo.xcprivacy"
                    : "no privacy manifest of \(bundle.displayName(owner.path)) (\(manifests.map { bundle.displayName($0.path) }.joined(separator: ", "))) declares it with an approved reason\(isApp ? " an app may give" : "")"
                let reasons = category.reasons.filter { !isApp || !$0.sdkOnly }
                findings.append(
                    bundle.finding(
                        description, context.severity, at: image.path,
                        message:
                            "\(bundle.shown(image)) references \(names.quotedList()) (\(category.title): \(category.rawValue)) and \(missing): App Store Connect rejects the upload (ITMS-91053 Missing API declaration)",
                        fix:
                            "declare \(category.rawValue) in \(bundle.displayName(owner.path))'s PrivacyInfo.xcprivacy with the approved reason that fits: "
                            + reasons.map { "\($0.code) (\($0.summary))" }.joined(separator: "; ")
                            + (isApp ? "" : " — or take a release of the SDK that ships its manifest"),
                        identity: category.rawValue))
            }
        }
        return findings
    }
}
