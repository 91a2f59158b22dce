import AndroidArtifacts
import ShipcheckCore

/// An app without a usable versionCode.
package enum VersionCodeRule: AndroidRule {
    static let maximum: Int64 = 2_100_000_000

    package static let description = RuleDescription(
        id: "play-version-code",
        summary:
            "The app's manifest has no android:versionCode, or one Google Play does not take (not 1 to 2,100,000,000).",
        rationale: """
            Google Play orders releases by versionCode and refuses an upload without one, or \
            with one outside 1…2,100,000,000 (its documented maximum). A missing versionCode \
            usually means the manifest was not merged with the build's version (a hand-built or \
            repackaged artifact). Reused codes are Play Console's to see and are not checked \
            here. Read from the application manifest of APKs, App Bundles and APK sets.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: the upload needs a versionCode between 1 and 2,100,000,000",
        fix: "set versionCode in the module's build.gradle(.kts) defaultConfig (or from the CI build number)",
        triggeringExamples: [
            RuleExample("↓manifest AndroidManifest.xml package=com.example"),
            RuleExample("↓manifest AndroidManifest.xml versionCode=0"),
            RuleExample("kind aab\n↓manifest base/manifest/AndroidManifest.xml versionCode=2100000001")
        ],
        nonTriggeringExamples: [
            RuleExample("manifest AndroidManifest.xml versionCode=1"),
            RuleExample("manifest AndroidManifest.xml versionCode=2100000000"),
            RuleExample("kind aar\nmanifest AndroidManifest.xml")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.isUploaded, let main = artifact.mainManifest else { return [] }
        let problem: String
        switch main.manifest.versionCode {
        case nil: problem = "has no android:versionCode"
        case let code? where code < 1 || code > maximum:
            problem = "sets android:versionCode=\"\(code)\", outside 1…2,100,000,000"
        default: return []
        }
        return [
            artifact.finding(
                description, context.severity, at: main.path,
                message: "\(main.path) \(problem): Google Play refuses the upload",
                fix: "set versionCode in the module's build.gradle(.kts) defaultConfig", identity: "version-code")
        ]
    }
}
