import AndroidArtifacts
import ShipcheckCore

/// An app whose manifest makes it debuggable.
package enum DebuggableRule: AndroidRule {
    package static let description = RuleDescription(
        id: "play-debuggable",
        summary: "The app's manifest sets android:debuggable=\"true\": a debug build is about to be uploaded.",
        rationale: """
            Google Play refuses debuggable uploads ("You uploaded a debuggable APK or Android App \
            Bundle. For security reasons you need to disable debugging before it can be \
            published in Google Play"): a debuggable app lets anyone with a USB cable attach a \
            debugger and read its data. The Android Gradle Plugin sets the attribute for the \
            debug build type only, so finding it in a release artifact means the wrong variant \
            was built or a manifest hard-codes it. Read from the application manifest of APKs, \
            App Bundles (the base module) and APK sets; a value that is a resource reference \
            (@bool/…) cannot be resolved offline and is not reported.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"You uploaded a debuggable APK or Android App Bundle\"",
        fix:
            "build the release variant (bundleRelease / assembleRelease) and remove android:debuggable from the manifest",
        triggeringExamples: [
            RuleExample("↓manifest AndroidManifest.xml debuggable=true"),
            RuleExample(
                "kind aab\n↓manifest base/manifest/AndroidManifest.xml debuggable=true\nmanifest feature/manifest/AndroidManifest.xml"
            ),
            RuleExample("kind apks\n↓manifest splits/base-master.apk/AndroidManifest.xml debuggable=true")
        ],
        nonTriggeringExamples: [
            RuleExample("manifest AndroidManifest.xml"),
            RuleExample("manifest AndroidManifest.xml debuggable=false"),
            RuleExample("manifest AndroidManifest.xml debuggable=@bool/debug"),
            RuleExample("kind aar\nmanifest AndroidManifest.xml debuggable=true")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.isUploaded, let main = artifact.mainManifest, main.manifest.debuggable == true else { return [] }
        return [
            artifact.finding(
                description, context.severity, at: main.path,
                message:
                    "\(main.path) sets android:debuggable=\"true\": Google Play refuses debuggable uploads (\"You uploaded a debuggable APK or Android App Bundle\")",
                fix: "build the release variant, and remove android:debuggable from the manifest",
                identity: "debuggable")
        ]
    }
}
