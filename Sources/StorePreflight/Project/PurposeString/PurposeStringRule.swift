import ShipcheckCore

/// ITMS-90683 (missing) / ITMS-90738 (empty): an API that needs a purpose string is referenced
/// while the app's Info.plist does not describe it. One rule, two inputs: the artifact
/// (`+Bundle`) and the project's app targets (`+Project`).
package enum PurposeStringRule: Rule {
    /// Read in a bundle and an app target (a file for each).
    package static let inputs: Set<RuleInput> = [.bundle, .privacyProject]

    package static let description = RuleDescription(
        id: "preflight-purpose-string",
        summary: "An API that needs an NS…UsageDescription is used while the app's Info.plist lacks it (ITMS-90683).",
        rationale: """
            App Store Connect reads which protected APIs the binaries reference — camera, \
            microphone, location, contacts, photos, calendars, reminders, Bluetooth, health, motion, \
            speech, Face ID, media library, tracking, NFC, HomeKit, local network, Siri — and \
            rejects the upload when the app's Info.plist has no purpose string for one: \
            "ITMS-90683: Missing purpose string in Info.plist" ("If you're using external libraries \
            or SDKs, they may reference APIs that require a purpose string. While your app might \
            not use these APIs, a purpose string is still required"); an empty value is \
            "ITMS-90738: Invalid purpose string value". In an artifact every image of the app \
            (extensions and frameworks included) is read; in a project, each app target's Swift \
            and Objective-C sources, against its Info.plist (INFOPLIST_FILE) and its \
            INFOPLIST_KEY_… build settings. Where one call serves several keys (EventKit's \
            requestAccess for events or reminders, PhotoKit's access levels), any of them will do. \
            The API → key table and its sources: docs/preflight.md.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90683: Missing purpose string in Info.plist (ITMS-90738 for an empty one)",
        fix:
            "add the NS…UsageDescription key to the app's Info.plist (or INFOPLIST_KEY_… build setting) with a sentence saying why the app uses the resource",
        triggeringExamples: [
            RuleExample(
                """
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app; NSCameraUsageDescription = "Scans receipts";}
                image Payload/App.app/App arm64 ios 17.0 26.0
                import OBJC_CLASS_$_CLLocationManager
                ↓selector requestWhenInUseAuthorization
                """),
            RuleExample(
                """
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app; NSContactsUsageDescription = "";}
                image Payload/App.app/App arm64 ios 17.0 26.0
                image Payload/App.app/Frameworks/Social.framework/Social arm64 ios 15.0 26.0
                ↓import OBJC_CLASS_$_CNContactStore
                """),
            RuleExample(
                """
                import CoreLocation
                let manager = CLLocationManager()
                func ask() { manager.↓requestWhenInUseAuthorization() }
                """, path: "App/Location.swift",
                companions: [
                    "project.yml": ProjectExamples.appSpec,
                    "App/Info.plist": ProjectExamples.infoPlist(["NSCameraUsageDescription": "Scan receipts"])
                ]),
            RuleExample(
                """
                import Contacts
                let store = ↓CNContactStore()
                """, path: "App/Friends.swift",
                companions: [
                    "project.yml": ProjectExamples.appSpec,
                    "App/Info.plist": ProjectExamples.infoPlist(["NSContactsUsageDescription": ""])
                ])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app; NSLocationWhenInUseUsageDescription = "Shows nearby stops";}
                image Payload/App.app/App arm64 ios 17.0 26.0
                import OBJC_CLASS_$_CLLocationManager
                selector requestWhenInUseAuthorization
                """),
            RuleExample(
                """
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example.app;}
                image Payload/App.app/App arm64 ios 17.0 26.0
                import OBJC_CLASS_$_CLLocationManager
                selector startUpdatingLocation
                """),
            RuleExample(
                """
                import CoreLocation
                let manager = CLLocationManager()
                func ask() { manager.requestWhenInUseAuthorization() }
                """, path: "App/Location.swift",
                companions: [
                    "project.yml": ProjectExamples.appSpec,
                    "App/Info.plist": ProjectExamples.infoPlist([
                        "NSLocationWhenInUseUsageDescription": "Shows nearby stops"
                    ])
                ]),
            RuleExample(
                """
                import CoreLocation
                let manager = CLLocationManager()
                func ask() { manager.requestWhenInUseAuthorization() }
                """, path: "App/Location.swift",
                companions: [
                    "project.yml": ProjectExamples.appSpec(infoPlistKeys: [
                        "NSLocationWhenInUseUsageDescription": "Shows nearby stops"
                    ])
                ]),
            RuleExample(
                """
                // CLLocationManager().requestWhenInUseAuthorization() comes in version 2
                let manager = "CLLocationManager"
                """, path: "App/Later.swift", companions: ["project.yml": ProjectExamples.appSpec])
        ])
}
