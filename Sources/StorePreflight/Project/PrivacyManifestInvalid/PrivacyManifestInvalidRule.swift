import ShipcheckCore

/// ITMS-91056 / ITMS-91108: a privacy manifest that is not a property list, or whose keys or
/// values are not valid (a reason code that does not exist, a category that is not one). One
/// rule, two inputs: the artifact's manifests (`+Bundle`) and the project's (`+Project`).
package enum PrivacyManifestInvalidRule: Rule {
    /// Read in a bundle and an app target (a file for each).
    package static let inputs: Set<RuleInput> = [.bundle, .privacyProject]

    package static let description = RuleDescription(
        id: "preflight-privacy-manifest-invalid",
        summary: "A PrivacyInfo.xcprivacy does not parse or declares what does not exist (ITMS-91056).",
        rationale: """
            App Store Connect refuses privacy manifests whose keys and values are not valid: \
            "ITMS-91056: Invalid privacy manifest" (ITMS-91108 for manifests outside the documented \
            places). Checked in every PrivacyInfo.xcprivacy of an artifact or a project, XML or \
            binary: it must be a dictionary property list; NSPrivacyAccessedAPITypes entries must \
            name one of the five categories and list approved reasons of that category (a code \
            that does not exist, or belongs to another category, is reported with the category's \
            codes); NSPrivacyTracking must be a boolean and, when true, NSPrivacyTrackingDomains \
            must list a domain; collected-data entries need their type, the two booleans and valid \
            purposes; other keys are typos Apple does not read.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-91056: Invalid privacy manifest",
        fix:
            "correct the manifest against Apple's keys, categories and reasons (or take a release of the SDK with a valid one)",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\n↓plist Payload/App.app/PrivacyInfo.xcprivacy <not a plist>"
            ),
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                ↓plist Payload/App.app/Frameworks/Kit.framework/PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryFileTimestamp; NSPrivacyAccessedAPITypeReasons = (C617.2);});}
                """),
            RuleExample(
                "↓" + ProjectExamples.manifest([("NSPrivacyAccessedAPICategoryFileTimestamp", ["C617.2"])]),
                path: "App/PrivacyInfo.xcprivacy", companions: ["project.yml": ProjectExamples.appSpec]),
            RuleExample("↓<plist><dict><key>NSPrivacyTracking</key>", path: "App/PrivacyInfo.xcprivacy")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                plist Payload/App.app/PrivacyInfo.xcprivacy {NSPrivacyTrackingDomains = (); NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryDiskSpace; NSPrivacyAccessedAPITypeReasons = (E174.1, 85F4.1);});}
                """),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nplist Payload/App.app/PrivacyInfo.xcprivacy <not a plist>\ndistribution enterprise"
            ),
            RuleExample(
                ProjectExamples.manifest([("NSPrivacyAccessedAPICategoryFileTimestamp", ["C617.1", "3B52.1"])]),
                path: "App/PrivacyInfo.xcprivacy", companions: ["project.yml": ProjectExamples.appSpec])
        ])
}
