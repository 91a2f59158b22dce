import ShipcheckCore

/// A build number (App Store: for the same version) or versionCode not above the previous
/// release's.
package enum BuildNotIncreasedRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-build-not-increased",
        summary:
            "The build number (CFBundleVersion for the same version, or versionCode) is not higher than the previous release's.",
        rationale: """
            App Store Connect refuses a build whose CFBundleVersion was already uploaded for the \
            same CFBundleShortVersionString ("Redundant Binary Upload", ITMS-90189) or is lower \
            than one uploaded before it; Google Play refuses an APK or App Bundle whose \
            versionCode is not higher than every one it has, whatever the versionName. Compared \
            numerically, component by component (1.10 is above 1.9), between two uploads of the \
            same app (an .ipa or .xcarchive, an .apk, .aab or .apks with the same identifier); a \
            new version string on the App Store may start its build numbers again.
            """,
        defaultSeverity: .error,
        storeRejection:
            "ITMS-90189: Redundant Binary Upload; Google Play: \"Version code N has already been used\"",
        fix: "raise the build number (CFBundleVersion / versionCode) above the previous release's",
        triggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=41 versionName=2.0
                ---
                ↓manifest AndroidManifest.xml package=com.example versionCode=41 versionName=2.1
                """),
            RuleExample(
                """
                android
                kind aab
                manifest base/manifest/AndroidManifest.xml package=com.example versionCode=300
                ---
                kind aab
                ↓manifest base/manifest/AndroidManifest.xml package=com.example versionCode=299
                """),
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.4; CFBundleVersion = 1.4.10;}
                ---
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.4; CFBundleVersion = 1.4.9;}
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
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.4; CFBundleVersion = 1.4.9;}
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.4; CFBundleVersion = 1.4.10;}
                """),
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.4; CFBundleVersion = 12;}
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; CFBundleShortVersionString = 1.5; CFBundleVersion = 1;}
                """),
            RuleExample(
                """
                android
                kind aar
                manifest AndroidManifest.xml package=com.example versionCode=3
                ---
                kind aar
                manifest AndroidManifest.xml package=com.example versionCode=3
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old.identity
        let new = comparison.new.identity
        guard comparison.isUpdateOfOneApp, let before = old.build, let after = new.build,
            let order = VersionOrder.compare(after, before), order != .orderedDescending
        else { return [] }
        let name = comparison.new.family == .android ? "versionCode" : "CFBundleVersion"
        if comparison.new.family == .apple && old.version != new.version { return [] }
        let store = comparison.new.family.store ?? "the store"
        let relation = order == .orderedSame ? "the same as" : "lower than"
        return [
            comparison.finding(
                description, context.severity, at: new.statedIn,
                message:
                    "\(name) \(after) is \(relation) the previous release's (\(before) in \(comparison.previousName))\(comparison.new.family == .apple ? " for version \(new.version ?? "")" : ""): \(store) refuses the upload",
                fix: "set \(name) above \(before)", identity: "build-not-increased")
        ]
    }
}
