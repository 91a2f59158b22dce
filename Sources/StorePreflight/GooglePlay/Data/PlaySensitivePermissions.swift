import AndroidArtifacts
import ShipcheckCore

/// The permissions Google Play asks a declaration for in Play Console, and reviews, when an app
/// or an update requests them ("Declare permissions for your app": newly requested permissions
/// are the ones the form lists with an alert). Each policy page was compared with this table on
/// the day its source says; where a page did not confirm the declaration's name as Play Console
/// shows it, the row says so.
package enum PlaySensitivePermissions {
    package struct Declaration: Sendable, Hashable {
        /// The declaration, as Play Console and the policy page name it.
        package var name: String
        /// The policy page that says when the permission is allowed.
        package var policy: DataSource
        /// The permissions it covers (`android.permission.…`).
        package var permissions: [String]
    }

    package static let source = DataSource(
        title: "Declare permissions for your app",
        url: "https://support.google.com/googleplay/android-developer/answer/9214102", retrieved: "2026-11-29")

    private static func page(_ answer: Int, _ title: String) -> DataSource {
        DataSource(
            title: title, url: "https://support.google.com/googleplay/android-developer/answer/\(answer)",
            retrieved: "2026-11-29")
    }

    private static func permissions(_ names: String...) -> [String] { names.map { "android.permission." + $0 } }

    package static let foregroundService = Declaration(
        // The page says "a new declaration on the App content page" and calls the policy
        // section "Permissions for Foreground Services"; the declaration's own title is not quoted.
        name: "Foreground service permissions",
        policy: page(13_392_821, "Understanding foreground service and full-screen intent requirements"),
        permissions: AndroidManifest.ForegroundServiceType.allCases.compactMap(\.permission))

    package static let declarations: [Declaration] = [
        Declaration(
            name: "Location permissions",
            policy: page(9_799_150, "Requesting access to location in the background"),
            permissions: permissions("ACCESS_BACKGROUND_LOCATION")),
        Declaration(
            name: "Permissions Declaration Form: SMS and Call Log",
            policy: page(10_208_820, "Use of SMS or Call Log permission groups"),
            // The eligible permissions the page's table lists for the default SMS, Phone and
            // Assistant handlers.
            permissions: permissions(
                "READ_SMS", "SEND_SMS", "WRITE_SMS", "RECEIVE_SMS", "RECEIVE_MMS", "RECEIVE_WAP_PUSH",
                "READ_CALL_LOG", "WRITE_CALL_LOG", "PROCESS_OUTGOING_CALLS")),
        Declaration(
            name: "Permissions Declaration Form: QUERY_ALL_PACKAGES",
            policy: page(10_158_779, "Use of the broad package (App) visibility (QUERY_ALL_PACKAGES) permission"),
            permissions: permissions("QUERY_ALL_PACKAGES")),
        Declaration(
            name: "Permissions Declaration Form: All files access",
            policy: page(10_467_955, "Use of All files access (MANAGE_EXTERNAL_STORAGE) permission"),
            permissions: permissions("MANAGE_EXTERNAL_STORAGE")),
        Declaration(
            name: "Permissions Declaration Form: REQUEST_INSTALL_PACKAGES",
            policy: page(12_085_295, "Use of the REQUEST_INSTALL_PACKAGES permission"),
            permissions: permissions("REQUEST_INSTALL_PACKAGES")),
        Declaration(
            // The page asks for a declaration; its title in Play Console was not confirmed.
            name: "Photo and video permissions",
            policy: page(14_115_180, "Details on Google Play's Photo and Video Permissions policy"),
            permissions: permissions("READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO")),
        Declaration(
            // The page details the full-screen intent requirements; the declaration's title in
            // Play Console was not confirmed.
            name: "Full-screen intent permission",
            policy: page(13_392_821, "Understanding foreground service and full-screen intent requirements"),
            permissions: permissions("USE_FULL_SCREEN_INTENT")),
        Declaration(
            // No page of its own was found: the policy on sensitive permissions covers exact
            // alarms, and the declaration's title in Play Console was not confirmed.
            name: "Exact alarm permission",
            policy: page(9_888_170, "Permissions and APIs that Access Sensitive Information"),
            permissions: permissions("SCHEDULE_EXACT_ALARM", "USE_EXACT_ALARM")),
        foregroundService
    ]

    /// The declaration Play asks for when an app requests `permission` (its full name).
    package static func declaration(for permission: String) -> Declaration? {
        declarations.first { $0.permissions.contains(permission) }
    }

    /// The declaration for a service of this `android:foregroundServiceType` (a name of
    /// `AndroidManifest.ForegroundServiceType`): every type whose platform permission Play
    /// reviews; nil for `shortService` and the hidden `fileManagement`, and names it does not know.
    package static func declaration(forForegroundServiceType type: String) -> Declaration? {
        AndroidManifest.ForegroundServiceType(rawValue: type)?.permission == nil ? nil : foregroundService
    }
}
