import AndroidArtifacts
import ShipcheckCore
import StorePreflight

/// A permission or foreground-service type Google Play asks a declaration for, requested by
/// this release and not by the previous one.
package enum SensitivePermissionAddedRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-sensitive-permission",
        summary:
            "The release newly requests a permission (or foreground-service type) Google Play asks a Play Console declaration for.",
        rationale: """
            Google Play reviews an update that newly requests a sensitive permission — \
            ACCESS_BACKGROUND_LOCATION, QUERY_ALL_PACKAGES, MANAGE_EXTERNAL_STORAGE, \
            READ_MEDIA_IMAGES / _VIDEO, the SMS and Call Log groups, REQUEST_INSTALL_PACKAGES, \
            USE_FULL_SCREEN_INTENT, exact alarms, a foreground-service type — against a \
            declaration in Play Console (the "Sensitive app permissions" form or the App \
            content page); without it the release is rejected, and a permission a library's \
            manifest merged in is the usual surprise. The permissions and declarations are \
            PlaySensitivePermissions' table (docs/play.md: each with its policy page and the day \
            it was checked), read from every module's and split's manifest.
            """,
        defaultSeverity: .warning,
        storeRejection: "Google Play: \"Your app is requesting sensitive permissions… complete the declaration\"",
        fix:
            "fill in the declaration in Play Console before the release, or remove the permission (tools:node=\"remove\" for one a library merges in)",
        triggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1 permissions=INTERNET
                ---
                ↓manifest AndroidManifest.xml package=com.example versionCode=2 permissions=INTERNET,ACCESS_BACKGROUND_LOCATION
                """),
            RuleExample(
                """
                android
                kind aab
                manifest base/manifest/AndroidManifest.xml package=com.example versionCode=1 components=service:.Sync:fgs=dataSync
                ---
                kind aab
                ↓manifest base/manifest/AndroidManifest.xml package=com.example versionCode=2 components=service:.Sync:fgs=dataSync|location
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1 permissions=ACCESS_BACKGROUND_LOCATION
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2 permissions=ACCESS_BACKGROUND_LOCATION,INTERNET,CAMERA
                """),
            RuleExample(
                """
                android
                manifest AndroidManifest.xml package=com.example versionCode=1
                ---
                manifest AndroidManifest.xml package=com.example versionCode=2 components=service:.Timer:fgs=shortService
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old
        let new = comparison.new
        guard new.family == .android else { return [] }
        var asked: [(declaration: PlaySensitivePermissions.Declaration, what: [String])] = []
        func note(_ declaration: PlaySensitivePermissions.Declaration?, _ what: String) {
            guard let declaration else { return }
            if let index = asked.firstIndex(where: { $0.declaration == declaration }) {
                asked[index].what.append(what)
            } else {
                asked.append((declaration, [what]))
            }
        }
        for permission in FactChange(name: "", old: old.permissions, new: new.permissions).added {
            note(PlaySensitivePermissions.declaration(for: permission), permission)
        }
        let types = FactChange(name: "", old: old.foregroundServiceTypes, new: new.foregroundServiceTypes)
        for type in types.added {
            note(PlaySensitivePermissions.declaration(forForegroundServiceType: type), "foregroundServiceType \(type)")
        }
        return asked.map { declaration, what in
            comparison.finding(
                description, context.severity, at: new.identity.statedIn,
                message:
                    "the release newly requests \(what.joined(separator: ", ")) (not in \(comparison.previousName)): Google Play asks for the \(declaration.name) declaration in Play Console and reviews it (\(declaration.policy.url))",
                fix:
                    "complete the \(declaration.name) declaration in Play Console before rolling out, or remove what asks for it",
                identity: "sensitive-permission \(declaration.name)")
        }
    }
}
