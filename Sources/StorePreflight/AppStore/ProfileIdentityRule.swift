import BinaryInspect
import ShipcheckCore

/// A bundle identifier the embedded profile does not provision.
package enum ProfileIdentityRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-profile-identity",
        summary:
            "A bundle's CFBundleIdentifier is not the application identifier its embedded provisioning profile provisions.",
        rationale: """
            Each signed app, extension and watch app carries the profile it was signed with \
            (embedded.mobileprovision, embedded.provisionprofile); the profile's \
            application-identifier (TEAMID.bundle-id, or a TEAMID.com.example.* wildcard) must \
            cover the bundle's CFBundleIdentifier, or App Store Connect refuses the upload \
            (ITMS-90164 / ITMS-90046: invalid code signing entitlements for 'application-identifier') \
            and devices refuse to install it — a profile copied from another target or app. Not \
            checked in an .xcarchive, which export re-signs.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90164 / ITMS-90046: Invalid Code Signing Entitlements (application-identifier)",
        fix:
            "sign each target with the profile made for its bundle identifier (automatic signing, or match's profile for that identifier)",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app;}\n↓profile Payload/App.app/embedded.mobileprovision app-store application-identifier=ABCDE12345.com.example.app.beta"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nimage Payload/App.app/PlugIns/W.appex/W arm64 ios 15.0 26.0\nplist Payload/App.app/PlugIns/W.appex/Info.plist {CFBundleIdentifier = com.example.app.widget;}\n↓profile Payload/App.app/PlugIns/W.appex/embedded.mobileprovision app-store application-identifier=ABCDE12345.com.example.app"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app;}\nprofile Payload/App.app/embedded.mobileprovision app-store application-identifier=ABCDE12345.com.example.app"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nplist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app;}\nprofile Payload/App.app/embedded.mobileprovision enterprise application-identifier=ABCDE12345.com.example.*"
            ),
            RuleExample(
                "kind xcarchive\nimage Products/Applications/App.app/App arm64 ios 15.0 26.0\nplist Products/Applications/App.app/Info.plist {CFBundleIdentifier = com.example.app;}\nprofile Products/Applications/App.app/embedded.mobileprovision development application-identifier=ABCDE12345.com.other"
            )
        ])

    static let profileNames = [
        "embedded.mobileprovision", "Contents/embedded.provisionprofile", "embedded.provisionprofile"
    ]

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.kind.hasFinalSigning else { return [] }
        return bundle.bundles.compactMap { nested -> Finding? in
            let prefix = nested.path.isEmpty ? "" : nested.path + "/"
            guard let identifier = nested.info("CFBundleIdentifier"),
                let (path, profile) = bundle.profiles.first(where: { entry in
                    profileNames.contains { prefix + $0 == entry.path }
                }),
                let applicationIdentifier = profile.entitlements["application-identifier"]
                    ?? profile.entitlements["com.apple.application-identifier"],
                let dot = applicationIdentifier.firstIndex(of: ".")
            else { return nil }
            let provisioned = String(applicationIdentifier[applicationIdentifier.index(after: dot)...])
            let covered =
                provisioned.hasSuffix("*") ? identifier.hasPrefix(provisioned.dropLast()) : provisioned == identifier
            guard !covered else { return nil }
            return bundle.finding(
                description, context.severity, at: path,
                message:
                    "\(bundle.displayName(nested.path)) is \(identifier), but its provisioning profile\(profile.name.map { " '\($0)'" } ?? "") provisions \(applicationIdentifier) (ITMS-90164)",
                fix: "sign \(nested.name) with a profile for \(identifier)", identity: "profile-identity")
        }
    }
}
