import AndroidArtifacts
import ShipcheckCore

/// An app whose manifest marks it test-only.
package enum TestOnlyRule: AndroidRule {
    package static let description = RuleDescription(
        id: "play-test-only",
        summary:
            "The app's manifest sets android:testOnly=\"true\": Google Play refuses it and devices install it only through adb.",
        rationale: """
            Android Studio adds android:testOnly="true" to builds it deploys from Run, and a \
            bundle or APK made that way is refused by Google Play ("You cannot upload a \
            test-only APK") and by the package installer (INSTALL_FAILED_TEST_ONLY). It happens \
            when an artifact from the IDE's build folder is handed to the release job instead of \
            one the release task produced. Read from the application manifest of APKs, App \
            Bundles and APK sets.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"You cannot upload a test-only APK\"",
        fix: "upload the artifact of the release task (./gradlew bundleRelease), not one Android Studio built to run",
        triggeringExamples: [
            RuleExample("↓manifest AndroidManifest.xml testOnly=true"),
            RuleExample("kind aab\n↓manifest base/manifest/AndroidManifest.xml testOnly=true")
        ],
        nonTriggeringExamples: [
            RuleExample("manifest AndroidManifest.xml"),
            RuleExample("manifest AndroidManifest.xml testOnly=false"),
            RuleExample("kind aar\nmanifest AndroidManifest.xml testOnly=true")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.isUploaded, let main = artifact.mainManifest, main.manifest.testOnly == true else { return [] }
        return [
            artifact.finding(
                description, context.severity, at: main.path,
                message:
                    "\(main.path) sets android:testOnly=\"true\": Google Play refuses test-only uploads and devices refuse to install it (INSTALL_FAILED_TEST_ONLY)",
                fix: "upload the artifact of the release task, not one Android Studio built to run",
                identity: "test-only")
        ]
    }
}
