import ShipcheckCore

/// `get-task-allow` in the code signature's entitlements or in the embedded profile.
package enum GetTaskAllowRule: BundleRule {
    /// iOS-family signing writes `get-task-allow`; macOS apps with the hardened runtime
    /// `com.apple.security.get-task-allow`.
    static let keys = ["get-task-allow", "com.apple.security.get-task-allow"]

    package static let description = RuleDescription(
        id: "bundle-get-task-allow",
        summary: "`get-task-allow = true`: the app is signed to let debuggers attach (a development signature).",
        rationale: """
            Development signing adds `get-task-allow` (macOS, hardened runtime: \
            `com.apple.security.get-task-allow`) so Xcode can attach a debugger; the App Store \
            rejects it and ad-hoc or enterprise builds should not carry it. It is read from the \
            entitlements in each binary's code signature (LC_CODE_SIGNATURE → SuperBlob → the XML \
            or DER entitlements blob) and from the embedded provisioning profile. Not checked in an \
            .xcarchive (export re-signs it) or when bundle.distribution is development.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("↓entitlements Payload/App.app/App get-task-allow=true"),
            RuleExample("↓profile Payload/App.app/embedded.mobileprovision development get-task-allow=true"),
            RuleExample("kind app\n↓entitlements Contents/MacOS/App com.apple.security.get-task-allow=true")
        ],
        nonTriggeringExamples: [
            RuleExample("entitlements Payload/App.app/App get-task-allow=false application-identifier=T.app"),
            RuleExample("entitlements Payload/App.app/App get-task-allow=true\ndistribution development"),
            RuleExample("kind xcarchive\nentitlements Products/Applications/App.app/App get-task-allow=true")
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.signingIsChecked else { return [] }
        let signed = bundle.entitlements.compactMap { entry -> Finding? in
            guard let key = keys.first(where: { entry.values[$0] == "true" }) else { return nil }
            return bundle.finding(
                description, context.severity, at: entry.path,
                message:
                    "the code signature's entitlements set \(key) = true: signed for development (\(bundle.distribution.method.rawValue) distribution, \(bundle.distribution.source))",
                fix:
                    "export or sign with a distribution identity and profile (Archive → Distribute App), not Apple Development",
                identity: "get-task-allow")
        }
        let profiled = bundle.profiles.filter { entry in keys.contains { entry.profile.entitlements[$0] == "true" } }
            .map { entry in
                bundle.finding(
                    description, context.severity, at: entry.path,
                    message:
                        "the provisioning profile\(entry.profile.name.map { " '\($0)'" } ?? "") grants get-task-allow = true",
                    fix: "embed an App Store, ad-hoc or enterprise distribution profile",
                    identity: "profile get-task-allow")
            }
        return signed + profiled
    }
}
