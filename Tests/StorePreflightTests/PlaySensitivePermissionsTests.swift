import AndroidArtifacts
import Testing

@testable import StorePreflight

/// The Play Console declarations a newly requested permission or foreground service type calls
/// for, as the diff's rule will name them.
@Suite struct PlaySensitivePermissionsTests {
    @Test(arguments: [
        ("ACCESS_BACKGROUND_LOCATION", "Location permissions"),
        ("READ_CALL_LOG", "Permissions Declaration Form: SMS and Call Log"),
        ("RECEIVE_WAP_PUSH", "Permissions Declaration Form: SMS and Call Log"),
        ("QUERY_ALL_PACKAGES", "Permissions Declaration Form: QUERY_ALL_PACKAGES"),
        ("MANAGE_EXTERNAL_STORAGE", "Permissions Declaration Form: All files access"),
        ("READ_MEDIA_VIDEO", "Photo and video permissions"),
        ("REQUEST_INSTALL_PACKAGES", "Permissions Declaration Form: REQUEST_INSTALL_PACKAGES"),
        ("USE_FULL_SCREEN_INTENT", "Full-screen intent permission"),
        ("USE_EXACT_ALARM", "Exact alarm permission"),
        ("FOREGROUND_SERVICE_MEDIA_PROJECTION", "Foreground service permissions")
    ])
    func aSensitivePermissionNamesItsDeclaration(_ permission: String, _ declaration: String) {
        #expect(PlaySensitivePermissions.declaration(for: "android.permission." + permission)?.name == declaration)
    }

    /// Permissions any app may request without a declaration, and a name without its prefix.
    @Test(arguments: ["android.permission.CAMERA", "android.permission.FOREGROUND_SERVICE", "READ_SMS"])
    func anOrdinaryPermissionNeedsNoDeclaration(_ permission: String) {
        #expect(PlaySensitivePermissions.declaration(for: permission) == nil)
    }

    /// The permission of each type as the platform spells it (`Manifest.permission`), and the
    /// types Play's foreground service declaration covers.
    @Test func foregroundServiceTypesAndTheirPermissions() {
        let permissions = AndroidManifest.ForegroundServiceType.allCases.compactMap(\.permission)
        #expect(
            permissions
                == [
                    "DATA_SYNC", "MEDIA_PLAYBACK", "PHONE_CALL", "LOCATION", "CONNECTED_DEVICE", "MEDIA_PROJECTION",
                    "CAMERA", "MICROPHONE", "HEALTH", "REMOTE_MESSAGING", "SYSTEM_EXEMPTED", "MEDIA_PROCESSING",
                    "SPECIAL_USE"
                ].map { "android.permission.FOREGROUND_SERVICE_" + $0 })
        #expect(
            PlaySensitivePermissions.declaration(forForegroundServiceType: "location")?.name
                == "Foreground service permissions")
        for type in ["shortService", "fileManagement", "teleport"] {
            #expect(PlaySensitivePermissions.declaration(forForegroundServiceType: type) == nil)
        }
    }

    /// Each permission has one declaration, each from a dated Play Console Help page.
    @Test func everyRowIsSourcedAndDated() {
        let permissions = PlaySensitivePermissions.declarations.flatMap(\.permissions)
        #expect(Set(permissions).count == permissions.count)
        for declaration in PlaySensitivePermissions.declarations {
            #expect(declaration.policy.url.hasPrefix("https://support.google.com/googleplay/android-developer/answer/"))
            #expect(declaration.policy.retrieved.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil)
            #expect(!declaration.permissions.isEmpty && !declaration.policy.title.isEmpty)
        }
    }
}
