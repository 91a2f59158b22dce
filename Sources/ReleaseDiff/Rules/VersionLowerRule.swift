import ShipcheckCore

/// An App Store version string lower than the previous release's.
package enum VersionLowerRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-version-lower",
        summary: "The version string (CFBundleShortVersionString) is lower than the previous release's.",
        rationale: """
            App Store Connect refuses a build whose CFBundleShortVersionString is lower than the \
            version already approved ("The value for key CFBundleShortVersionString [1.2] must \
            contain a higher version than that of the previously approved version [1.3]", \
            ITMS-90062). Compared numerically, component by component, between two uploads of \
            the same app. Google Play orders releases by versionCode only, so an Android \
            versionName is not judged.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90062: This bundle is invalid (CFBundleShortVersionString lower than approved)",
        fix: "give the release a version above the previous one's",
        triggeringExamples: [
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 2.10; CFBundleVersion = 40;}
                ---
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 2.9; CFBundleVersion = 41;}
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 2.9; CFBundleVersion = 40;}
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 2.10; CFBundleVersion = 41;}
                """),
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=41 versionName=3.0
                ---
                manifest AndroidManifest.xml package=com.example versionCode=42 versionName=2.9-hotfix
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old.identity
        let new = comparison.new.identity
        guard comparison.new.family == .apple, comparison.isUpdateOfOneApp, let before = old.version,
            let after = new.version, VersionOrder.compare(after, before) == .orderedAscending
        else { return [] }
        return [
            comparison.finding(
                description, context.severity, at: new.statedIn,
                message:
                    "CFBundleShortVersionString \(after) is lower than the previous release's (\(before) in \(comparison.previousName)): App Store Connect refuses the upload (ITMS-90062)",
                fix: "set CFBundleShortVersionString above \(before)", identity: "version-lower")
        ]
    }
}
