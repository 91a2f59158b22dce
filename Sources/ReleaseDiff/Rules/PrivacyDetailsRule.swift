import ShipcheckCore

/// A new usage description, required-reason category or tracking domain: the App Store's
/// privacy details to review.
package enum PrivacyDetailsRule: PreviousReleaseRule {
    package static let description = RuleDescription(
        id: "previous-privacy-details",
        summary:
            "The release adds a usage description, a required-reason API category or a tracking domain: the App Privacy details need review.",
        rationale: """
            App Store Connect's App Privacy details (the privacy "nutrition label") must describe \
            what the app collects and how; Apple reviews them against the build, and a label \
            that no longer matches is a rejection (Guideline 5.1.1) or, worse, a label that \
            tells users less than the app does. A release that asks for new access \
            (NSCameraUsageDescription, NSLocationWhenInUseUsageDescription…), declares a new \
            required-reason API category or a new tracking domain in a privacy manifest is the \
            moment to update them, and this is the list of what changed. Read from every \
            bundle's Info.plist and every PrivacyInfo.xcprivacy, the app's and its SDKs'.
            """,
        defaultSeverity: .warning,
        storeRejection: "Guideline 5.1.1 (Data Collection and Storage): App Privacy details that do not match the app",
        fix: "review the App Privacy details in App Store Connect for what the release adds",
        triggeringExamples: [
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                ---
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; NSCameraUsageDescription = "Scan receipts";}
                """),
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                plist Payload/App.app/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                ---
                ↓plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                plist Payload/App.app/PrivacyInfo.xcprivacy {NSPrivacyTracking = 1; NSPrivacyTrackingDomains = (ads.example.com);}
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; NSCameraUsageDescription = "Scan receipts";}
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; NSCameraUsageDescription = "Scan receipts and cards";}
                """),
            RuleExample(
                """
                apple
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example; NSMicrophoneUsageDescription = "Voice notes";}
                ---
                plist Payload/App.app/Info.plist {CFBundleIdentifier = com.example;}
                """)
        ])

    package static func check(_ comparison: ReleaseComparison, _ context: PreviousReleaseContext) -> [Finding] {
        let old = comparison.old
        let new = comparison.new
        guard new.family == .apple else { return [] }
        let added = [
            ("usage descriptions", FactChange(name: "", old: old.usageDescriptions, new: new.usageDescriptions).added),
            (
                "required-reason API categories",
                FactChange(name: "", old: old.requiredReasonCategories, new: new.requiredReasonCategories).added
            ),
            ("tracking domains", FactChange(name: "", old: old.trackingDomains, new: new.trackingDomains).added)
        ].filter { !$0.1.isEmpty }
        guard !added.isEmpty else { return [] }
        let listed = added.map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
        return [
            comparison.finding(
                description, context.severity, at: new.identity.statedIn,
                message:
                    "the release adds \(listed) since \(comparison.previousName): review the App Privacy details in App Store Connect",
                fix: "update the App Privacy details for what the release adds, before submitting it for review",
                identity: "privacy-details \(added.flatMap(\.1).joined(separator: ","))")
        ]
    }
}
