import ShipcheckCore

/// A raised minimum OS or API level, or an architecture, ABI or device family dropped.
package enum DevicesDroppedRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-devices-dropped",
        summary:
            "The release raises the minimum OS or minSdkVersion, or drops an architecture, ABI or device family the previous one ran on.",
        rationale: """
            Users whose devices the previous release supported and this one does not stop \
            getting updates: the stores keep offering them the last release they can run. That \
            may be the plan (a new OS floor, 32-bit dropped), but when it is not — a \
            dependency that raised the deployment target, an ABI filter lost in a Gradle change, \
            UIDeviceFamily rewritten — it is only seen in the installed base months later. \
            Reported: MinimumOSVersion or the executable's minimum OS, or minSdkVersion, above the \
            previous release's; an architecture or Android ABI the previous release shipped and \
            this one does not; a UIDeviceFamily entry dropped.
            """,
        defaultSeverity: .warning,
        fix: "if it is not intended, find the change that raised the floor or dropped the architecture",
        triggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1 minSdk=23
                ---
                ↓manifest AndroidManifest.xml package=com.example versionCode=2 minSdk=26
                """),
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1 minSdk=24
                lib lib/arm64-v8a/libapp.so
                lib lib/armeabi-v7a/libapp.so
                ---
                ↓manifest AndroidManifest.xml package=com.example versionCode=2 minSdk=24
                lib lib/arm64-v8a/libapp.so
                """),
            RuleExample(
                """
                apple
                image Payload/App.app/App arm64 ios 15.0 26.0
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; MinimumOSVersion = 15.0; UIDeviceFamily = (1, 2);}
                ---
                image Payload/App.app/App arm64 ios 17.0 26.0
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; MinimumOSVersion = 17.0; UIDeviceFamily = (1);}
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1 minSdk=26
                lib lib/arm64-v8a/libapp.so
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2 minSdk=24
                lib lib/arm64-v8a/libapp.so
                lib lib/x86_64/libapp.so
                """),
            RuleExample(
                """
                apple
                image Payload/App.app/App arm64 ios 15.0 26.0
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; MinimumOSVersion = 15.0;}
                ---
                image Payload/App.app/App arm64 ios 15.0 26.0
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; MinimumOSVersion = 15.0;}
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old
        let new = comparison.new
        var dropped: [String] = []
        if let before = old.identity.minimumOS, let after = new.identity.minimumOS, after.isHigher(than: before) {
            dropped.append("raises the minimum from \(before) to \(after)")
        }
        let architectures = Set(old.architectures).subtracting(new.architectures).sorted()
        if !architectures.isEmpty, !new.architectures.isEmpty {
            let what = new.family == .android ? "ABI" : "architecture"
            dropped.append(
                "drops the \(what)\(architectures.count == 1 ? "" : "s") \(architectures.joined(separator: ", "))")
        }
        let families = Set(old.identity.deviceFamilies).subtracting(new.identity.deviceFamilies).sorted()
        if !families.isEmpty {
            dropped.append(
                "drops the device famil\(families.count == 1 ? "y" : "ies") \(families.joined(separator: ", "))")
        }
        guard !dropped.isEmpty else { return [] }
        return [
            comparison.finding(
                description, context.severity, at: new.identity.statedIn,
                message:
                    "the release \(dropped.joined(separator: ", and ")) since \(comparison.previousName): devices the previous release ran on get no more updates",
                fix: "if it is not intended, find the change that raised the floor or dropped it",
                identity: "devices-dropped")
        ]
    }
}
