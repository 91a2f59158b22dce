import AndroidArtifacts
import ScanEngine
import ShipcheckCore

/// An app that targets an API level below Google Play's floor for its form factor.
package enum TargetSDKRule: AndroidRule, ConfigurableRule {
    /// `rules.play-target-sdk-too-old.minimum-target-sdk`: one API level that replaces the dated
    /// table's floor for every form factor.
    package struct Options: RuleOptions {
        package static let keys = ["minimum-target-sdk"]

        var minimumTargetSdk: Int?

        package init() {}

        package mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
            guard let level = try mapping.int(key) else { return }
            guard (1...1000).contains(level) else {
                throw InputError(
                    path: mapping.file, line: mapping.line(of: key),
                    message: "'\(mapping.context).\(key)' must be an API level such as 36, not \(level)")
            }
            minimumTargetSdk = level
        }
    }

    package static let description = RuleDescription(
        id: "play-target-sdk-too-old",
        summary:
            "The app targets an API level below the one Google Play takes new apps and updates at (or the one announced next).",
        rationale: """
            Every August 31 Google Play raises the target API level new apps and app updates \
            must have ("Your app currently targets API level 34 and must target at least API \
            level 35"); Wear OS, Android TV and Android Automotive OS apps have floors of their \
            own. The targetSdkVersion of the application manifest (or its minSdkVersion, which \
            the platform takes when no target is set) is compared with the floor in force on \
            the day of the check for the form factor its required <uses-feature> names, from a \
            dated table of Google's announcements (docs/play.md), or with \
            rules.play-target-sdk-too-old.minimum-target-sdk. A floor announced for a later \
            day is a warning until then; a preview codename is never taken.
            """,
        defaultSeverity: .error,
        storeRejection: "Google Play: \"Your app currently targets API level X and must target at least API level Y\"",
        fix:
            "raise targetSdk in the module's build.gradle(.kts) and test the behaviour changes of that Android release",
        triggeringExamples: [
            RuleExample("upload 2026-11-27\n↓manifest AndroidManifest.xml versionCode=3 targetSdk=35"),
            RuleExample("upload 2026-11-27\nkind aab\n↓manifest base/manifest/AndroidManifest.xml minSdk=24"),
            RuleExample(
                "upload 2026-11-27\n↓manifest AndroidManifest.xml targetSdk=34 feature=android.hardware.type.watch"),
            RuleExample("upload 2026-06-01\n↓«warning»manifest AndroidManifest.xml targetSdk=35"),
            RuleExample("upload 2026-11-27\n↓manifest AndroidManifest.xml targetSdk=Baklava")
        ],
        nonTriggeringExamples: [
            RuleExample("upload 2026-11-27\nmanifest AndroidManifest.xml targetSdk=36"),
            RuleExample(
                "upload 2026-11-27\nmanifest AndroidManifest.xml targetSdk=35 feature=android.hardware.type.watch"),
            RuleExample(
                "upload 2026-11-27\nmanifest AndroidManifest.xml targetSdk=34 feature=android.software.leanback"),
            RuleExample("upload 2025-09-01\nmanifest AndroidManifest.xml targetSdk=36"),
            RuleExample("upload 2026-11-27\nkind aar\nmanifest AndroidManifest.xml minSdk=21")
        ])

    package static func check(_ artifact: AndroidArtifact, _ context: AndroidRuleContext) -> [Finding] {
        guard artifact.isUploaded, let main = artifact.mainManifest else { return [] }
        let manifest = main.manifest
        let form = manifest.formFactor
        let fix = "raise targetSdk in build.gradle(.kts) and test the behaviour changes of that Android release"
        guard let target = manifest.targetSdk else {
            return [
                artifact.finding(
                    description, context.severity, at: main.path,
                    message:
                        "\(main.path) targets the preview '\(manifest.targetSdkText ?? "")': Google Play takes no app built against a preview SDK",
                    fix: "target a released API level", identity: "target-sdk")
            ]
        }
        let targets =
            "\(main.path) targets API level \(target)\(manifest.targetSdkText == nil ? " (no targetSdkVersion: its minSdkVersion)" : "")"
        if let configured = context.configuration.options(for: Self.self).minimumTargetSdk {
            guard target < configured else { return [] }
            return [
                artifact.finding(
                    description, context.severity, at: main.path,
                    message:
                        "\(targets); rules.play-target-sdk-too-old.minimum-target-sdk requires \(configured) or later",
                    fix: fix, identity: "target-sdk")
            ]
        }
        guard let missed = PlayTargetAPIFloors.table.missed(for: form, on: artifact.uploadDay, by: { target < $0 })
        else { return [] }
        let floor = missed.floor
        if missed.inForce {
            return [
                artifact.finding(
                    description, context.severity, at: main.path,
                    message:
                        "\(targets); since \(floor.since) Google Play takes \(form.rawValue) apps and updates only when they target API level \(floor.value) or later (\"Your app currently targets API level \(target) and must target at least API level \(floor.value)\")",
                    fix: fix, identity: "target-sdk")
            ]
        }
        var finding = artifact.finding(
            description, .warning, at: main.path,
            message:
                "\(targets); starting \(floor.since) Google Play takes \(form.rawValue) apps and updates only when they target API level \(floor.value) or later (announced)",
            fix: "move to targetSdk \(floor.value) before \(floor.since)", identity: "target-sdk-next")
        finding.isDowngraded = true
        return [finding]
    }
}
