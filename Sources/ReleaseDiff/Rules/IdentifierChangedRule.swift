import ShipcheckCore

/// A bundle identifier or applicationId other than the previous release's.
package enum IdentifierChangedRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-identifier-changed",
        summary:
            "The app's identifier (CFBundleIdentifier or the manifest's package) differs from the previous release's.",
        rationale: """
            A store knows an app by its identifier: a build with another CFBundleIdentifier or \
            applicationId is not an update of the previous release but another app (App Store \
            Connect refuses it for this app's record; Google Play installs it beside the old one \
            and users keep the old app). A changed identifier is usually a build flavour or \
            configuration mix-up (the staging app's identifier in a store build).
            """,
        defaultSeverity: .error,
        storeRejection: "App Store Connect / Google Play: the upload is another app, not an update",
        fix: "build the release with the app's own identifier (check the build configuration and flavour)",
        triggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=41
                ---
                ↓manifest AndroidManifest.xml package=com.example.staging versionCode=42
                """),
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app; CFBundleVersion = 7;}
                ---
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app.dev; CFBundleVersion = 8;}
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=41
                ---
                manifest AndroidManifest.xml package=com.example versionCode=42
                """),
            RuleExample(
                """
                apple
                kind framework
                image Kit arm64 ios 15.0 26.0
                plist Info.plist {CFBundleIdentifier = com.example.kit; CFBundleExecutable = Kit;}
                ---
                kind framework
                image Kit arm64 ios 15.0 26.0
                plist Info.plist {CFBundleIdentifier = com.example.KitCore; CFBundleExecutable = Kit;}
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old
        let new = comparison.new
        guard old.isUpload, new.isUpload, let before = old.identity.identifier, let after = new.identity.identifier,
            before != after
        else { return [] }
        return [
            comparison.finding(
                description, context.severity, at: new.identity.statedIn,
                message:
                    "the identifier is \(after), the previous release's (\(comparison.previousName)) is \(before): \(new.family.store ?? "the store") takes it as another app, not an update",
                fix: "build the release with \(before)", identity: "identifier-changed")
        ]
    }
}
