import Preflight
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

/// `preflight-purpose-string` in an artifact: each app's, extension's and App Clip's images
/// (its executable and the frameworks it holds) against its own Info.plist.
extension PurposeStringRule: BundleRule {
    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        var findings: [Finding] = []
        var reported: Set<String> = []
        for image in bundle.images {
            guard let app = bundle.enclosingBundles(of: image.path).first(where: { $0.role.isApplicationLike }),
                app.infoPlistPath != nil
            else { continue }
            let references = image.tableReferences
            for requirement in PurposeStrings.requirements where requirement.binary.allSatisfy(references.contains) {
                let values = requirement.keys.compactMap { app.info($0) }
                let identity = "\(app.path) \(requirement.keys.joined(separator: " "))"
                guard !values.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
                    reported.insert(identity).inserted
                else { continue }
                let keys =
                    requirement.keys.count == 1
                    ? requirement.keys[0]
                    : "\(requirement.keys[0]) (or \(requirement.keys.dropFirst().joined(separator: ", ")))"
                let plist = bundle.displayName(app.infoPlistPath ?? app.path)
                let problem =
                    values.isEmpty
                    ? "\(plist) has no \(keys): App Store Connect rejects the upload (ITMS-90683 Missing purpose string in Info.plist)"
                    : "\(plist) has an empty \(keys): App Store Connect rejects the upload (ITMS-90738 Invalid purpose string value)"
                findings.append(
                    bundle.finding(
                        description, context.severity, at: image.path,
                        message:
                            "\(bundle.shown(image)) references \(requirement.binary.map(\.description).quotedList()) (\(requirement.resource)) and \(problem)",
                        fix:
                            "add \(requirement.keys[0]) to \(plist) saying why the app uses \(requirement.resource) (even when only an SDK references the API)",
                        identity: requirement.keys.joined(separator: " ")))
            }
        }
        return findings
    }
}
