import ShipcheckCore

/// A provisioning profile of another distribution than the artifact is meant for.
package enum DevelopmentProfileRule: BundleRule {
    package static let description = RuleDescription(
        id: "bundle-development-profile",
        summary:
            "A development or ad-hoc provisioning profile (ProvisionedDevices) in an artifact meant for the store.",
        rationale: """
            The embedded profile (`embedded.mobileprovision`, `embedded.provisionprofile`: a CMS \
            envelope around a property list) says how the app may run: on listed devices \
            (development, ad-hoc), anywhere (enterprise) or from the store. How the artifact is \
            meant to be distributed comes from `bundle.distribution` in .shipcheck.yml, else the \
            `method` of the ExportOptions.plist that xcodebuild -exportArchive writes beside the \
            .ipa, else the App Store is assumed. Not checked in an .xcarchive (export re-signs it).
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓profile Payload/App.app/embedded.mobileprovision development"),
            RuleExample("↓profile Payload/App.app/embedded.mobileprovision ad-hoc"),
            RuleExample("↓profile Payload/App.app/embedded.mobileprovision development\ndistribution ad-hoc")
        ],
        nonTriggeringExamples: [
            RuleExample("profile Payload/App.app/embedded.mobileprovision app-store"),
            RuleExample("profile Payload/App.app/embedded.mobileprovision ad-hoc\ndistribution ad-hoc"),
            RuleExample("kind xcarchive\nprofile Products/Applications/App.app/embedded.mobileprovision development")
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.signingIsChecked else { return [] }
        let expected = bundle.distribution
        return bundle.profiles.compactMap { path, profile in
            guard profile.kind != expected.method else { return nil }
            let devices =
                profile.deviceCount > 0 ? " for \(profile.deviceCount) listed devices (ProvisionedDevices)" : ""
            return bundle.finding(
                description, context.severity, at: path,
                message:
                    "\(profile.kind.rawValue) provisioning profile\(profile.name.map { " '\($0)'" } ?? "")\(devices) in an artifact meant for \(expected.method.rawValue) distribution (\(expected.source))",
                fix:
                    "export with the \(expected.method.rawValue) method so the matching distribution profile is embedded, or set bundle.distribution",
                identity: "profile \(profile.kind.rawValue)")
        }
    }
}
