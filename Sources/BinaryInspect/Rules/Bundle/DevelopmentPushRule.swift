import ShipcheckCore

/// `aps-environment = development`: push notifications go to Apple's sandbox.
package enum DevelopmentPushRule: BundleRule {
    static let keys = ["aps-environment", "com.apple.developer.aps-environment"]

    package static let description = RuleDescription(
        id: "bundle-development-push",
        summary: "`aps-environment = development`: push notifications are registered with the sandbox.",
        rationale: """
            A development-signed build registers for push with Apple's sandbox environment, so \
            production pushes never reach it. The key (`aps-environment`, or \
            `com.apple.developer.aps-environment` on macOS) is read from the code signature's \
            entitlements and the embedded profile. Not checked in an .xcarchive or when \
            bundle.distribution is development.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓entitlements Payload/App.app/App aps-environment=development"),
            RuleExample(
                "kind app\nimage Contents/MacOS/App arm64 macos 14.0 26.0\n↓profile Contents/embedded.provisionprofile development com.apple.developer.aps-environment=development"
            )
        ],
        nonTriggeringExamples: [
            RuleExample("entitlements Payload/App.app/App aps-environment=production"),
            RuleExample("entitlements Payload/App.app/App aps-environment=development\ndistribution development")
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.signingIsChecked else { return [] }
        let sources =
            bundle.entitlements.map { ($0.path, $0.values, "the code signature's entitlements") }
            + bundle.profiles.map { ($0.path, $0.profile.entitlements, "the provisioning profile") }
        return sources.compactMap { path, values, source in
            guard let key = keys.first(where: { values[$0] == "development" }) else { return nil }
            return bundle.finding(
                description, context.severity, at: path,
                message: "\(key) is development in \(source): push notifications use the sandbox, not production",
                fix: "sign with a distribution profile (its aps-environment is production)",
                identity: "aps-environment \(source)")
        }
    }
}
