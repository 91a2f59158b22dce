import BinaryInspect
import ShipcheckCore

/// ITMS-91065: a listed SDK used as a binary dependency without a code signature.
package enum SDKSignatureRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-sdk-signature",
        summary: "An embedded framework Apple lists as a commonly used SDK is not signed (ITMS-91065).",
        rationale: """
            When a commonly used third-party SDK from Apple's list is a binary dependency, App \
            Store Connect wants its signature: "ITMS-91065: Missing signature - Your app includes \
            “Frameworks/Starscream.framework/Starscream”, which includes Starscream, an SDK that \
            was identified in the documentation as a privacy-impacting third-party SDK … the SDK \
            must include a signature file". Checked: every read slice of a listed framework's \
            binary carries LC_CODE_SIGNATURE; a standalone .xcframework named like a listed SDK \
            carries its signature in _CodeSignature/ at its top. Only for artifacts meant for the \
            App Store.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-91065: Missing signature",
        fix: "take the SDK vendor's signed XCFramework, or sign it with codesign before embedding it",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\n↓image Payload/App.app/Frameworks/Starscream.framework/Starscream arm64 ios 12.0 18.0 unsigned"
            ),
            RuleExample("kind xcframework\n↓image ios-arm64/Lottie.framework/Lottie arm64 ios 13.0 18.0 unsigned")
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Starscream.framework/Starscream arm64 ios 12.0 18.0"
            ),
            RuleExample(
                "kind xcframework\nimage ios-arm64/Lottie.framework/Lottie arm64 ios 13.0 18.0 unsigned\nfile _CodeSignature/CodeResources"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Kit.framework/Kit arm64 ios 12.0 18.0 unsigned"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        if bundle.kind == .xcframework, bundle.files.contains(where: { $0.hasPrefix("_CodeSignature/") }) { return [] }
        return bundle.listedSDKFrameworks.compactMap { framework, entry in
            guard let image = bundle.executable(of: framework),
                image.readSlices.contains(where: { !$0.hasCodeSignature })
            else { return nil }
            let unsigned = image.readSlices.filter { !$0.hasCodeSignature }.map(\.displayName)
            // A binary signed for some slices only (Carthage's device slices, its simulator
            // slices not) says which: "no code signature" alone reads as none at all.
            let missing =
                unsigned.count == image.readSlices.count
                ? "its binary carries no code signature (\(unsigned.joined(separator: ", ")))"
                : "its binary's \(unsigned.joined(separator: ", ")) slice\(unsigned.count == 1 ? "" : "s") carr\(unsigned.count == 1 ? "ies" : "y") no code signature (its other slices do)"
            return bundle.finding(
                description, context.severity, at: image.path,
                message:
                    "\(bundle.shown(image)) is \(entry), an SDK Apple lists as commonly used, and \(bundle.kind == .xcframework ? "neither the xcframework nor " : "")\(missing): App Store Connect rejects the upload (ITMS-91065 Missing signature)",
                fix:
                    "take \(entry)'s signed XCFramework from its vendor (or sign it with codesign); Xcode verifies the signature when the SDK is updated",
                identity: "listed SDK signature \(entry)")
        }
    }
}
