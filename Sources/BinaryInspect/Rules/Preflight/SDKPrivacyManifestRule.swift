import Preflight
import ShipcheckCore

/// ITMS-91061: an embedded framework Apple lists as a commonly used third-party SDK, without a
/// privacy manifest of its own.
package enum SDKPrivacyManifestRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-sdk-privacy-manifest",
        summary: "An embedded framework Apple lists as a commonly used SDK has no PrivacyInfo.xcprivacy (ITMS-91061).",
        rationale: """
            Apple lists commonly used third-party SDKs (Alamofire, Firebase…, Flutter plugins, \
            SDWebImage, … — the list, with its source and date, is in docs/preflight.md); a new app \
            that includes one, or an update that adds one, must ship the SDK's privacy manifest, \
            whatever its version, repackaged copies included: "ITMS-91061: Missing privacy \
            manifest - Your app includes “Frameworks/Alamofire.framework/Alamofire”, which \
            includes Alamofire, an SDK that was identified in the documentation as a commonly used \
            third-party SDK". A framework (or an xcframework's library) whose name is one of the \
            list's, matched without case, must hold a PrivacyInfo.xcprivacy (in the framework or \
            a resource bundle inside it). SDKs linked statically into another binary cannot be \
            told by name and are not checked. Only for artifacts meant for the App Store.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-91061: Missing privacy manifest",
        fix: "update the SDK to a release that ships PrivacyInfo.xcprivacy inside its framework",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0"
            ),
            RuleExample("kind xcframework\nimage ios-arm64/SDWebImage.framework/SDWebImage arm64 ios 12.0 18.0")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                image Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0
                plist Payload/App.app/Frameworks/Alamofire.framework/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                """),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/AlamofireImage.framework/AlamofireImage arm64 ios 12.0 18.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0\ndistribution ad-hoc"
            )
        ])

    static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.listedSDKFrameworks.compactMap { framework, entry in
            guard bundle.privacyManifests(of: framework).isEmpty else { return nil }
            let place = framework.executable ?? framework.path
            return bundle.finding(
                description, context.severity, at: place,
                message:
                    "\(bundle.displayName(place)) is \(entry), an SDK Apple lists as commonly used, and it holds no PrivacyInfo.xcprivacy: App Store Connect rejects the upload (ITMS-91061 Missing privacy manifest)",
                fix: "update \(entry) to a release that ships its privacy manifest (\(ListedSDKs.source.url))",
                identity: "listed SDK \(entry)")
        }
    }
}

extension BundleContents {
    /// The frameworks whose name is on Apple's list, with the list's entry (this rule's and
    /// `SDKSignatureRule`'s subjects).
    var listedSDKFrameworks: [(framework: NestedBundle, entry: String)] {
        bundles.compactMap { bundle in
            guard bundle.role == .framework, let entry = ListedSDKs.entry(named: bundle.name) else { return nil }
            return (bundle, entry)
        }
    }
}
