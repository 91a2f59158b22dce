import ShipcheckCore

/// An archived image whose UUID no dSYM of the archive carries. One rule, two inputs: the
/// archive (`+Bundle`) and the project's release build settings (`+BuildSettings`).
package enum DSYMMissingRule: Rule {
    /// Read in a bundle and build settings (a file for each).
    package static let inputs: Set<RuleInput> = [.bundle, .buildSetting]

    package static let description = RuleDescription(
        id: "preflight-dsym-missing",
        summary: "An image in an .xcarchive has no dSYM with its UUID under dSYMs/.",
        rationale: """
            Crash reports name code by image UUID and address; without a dSYM whose UUID is the \
            image's (LC_UUID of each slice), crashes from that release cannot be symbolicated, and \
            App Store Connect answers the upload with "Upload Symbols Failed: The archive did not \
            include a dSYM for X.framework with the UUIDs [...]". Every slice of every image under \
            Products/ is matched with the UUIDs of the DWARF files in dSYMs/: a missing one (a \
            vendor's binary framework, DEBUG_INFORMATION_FORMAT = dwarf) or one whose dSYM is \
            from another build is reported, naming the image and the UUID. Archives only. In a project \
            (`audit`) the same rule reads DEBUG_INFORMATION_FORMAT = dwarf in release \
            configurations (project.pbxproj, .xcconfig, XcodeGen): such a build makes no dSYM.
            """,
        defaultSeverity: .warning,
        storeRejection: "App Store Connect's \"Upload Symbols Failed\" (crashes cannot be symbolicated)",
        fix:
            "set DEBUG_INFORMATION_FORMAT = dwarf-with-dsym for the release configuration of every target, and ask vendors of binary frameworks for their dSYMs",
        triggeringExamples: [
            RuleExample(
                "kind xcarchive\n↓image Products/Applications/App.app/App arm64 ios 15.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530"
            ),
            RuleExample(
                "kind xcarchive\n↓image Products/Applications/App.app/App arm64 ios 15.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530\ndsym dSYMs/App.app.dSYM/Contents/Resources/DWARF/App arm64 4C4C44D8-5555-3144-A1B9-5B35EE9F101A"
            ),
            RuleExample(
                "kind xcarchive\nimage Products/Applications/App.app/App arm64 ios 15.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530\ndsym dSYMs/App.app.dSYM/Contents/Resources/DWARF/App arm64 4C4C4408-5555-3144-A193-1E219F242530\n↓image Products/Applications/App.app/Frameworks/Vendor.framework/Vendor arm64 ios 15.0 26.0 uuid=11111111-2222-3333-4444-555555555555"
            ),
            // In the project (`audit`): a release configuration that makes no dSYM.
            RuleExample(
                "↓DEBUG_INFORMATION_FORMAT = dwarf", path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ])
        ],
        nonTriggeringExamples: [
            RuleExample(
                "kind xcarchive\nimage Products/Applications/App.app/App arm64 ios 15.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530\ndsym dSYMs/App.app.dSYM/Contents/Resources/DWARF/App arm64 4C4C4408-5555-3144-A193-1E219F242530"
            ),
            RuleExample("image Payload/App.app/App arm64 ios 15.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530"),
            RuleExample(
                "DEBUG_INFORMATION_FORMAT = dwarf-with-dsym", path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                "DEBUG_INFORMATION_FORMAT = dwarf", path: "Config/Debug.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Debug: Config/Debug.xcconfig\n"
                ])
        ])
}
