import BinaryInspect
import Foundation
import ShipcheckCore

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
