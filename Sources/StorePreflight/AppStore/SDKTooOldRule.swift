import BinaryInspect
import ScanEngine
import ShipcheckCore

/// An app or extension built with an SDK older than the store takes.
package enum SDKTooOldRule: BundleRule, ConfigurableRule {
    /// `rules.preflight-sdk-too-old.minimum-sdk`: the App Store's SDK floor by platform (`ios`,
    /// `tvos`, `watchos`, `visionos`, `macos` → `18.0`), replacing the dated table's for that
    /// platform.
    package struct Options: RuleOptions {
        package static let keys = ["minimum-sdk"]
        package static let formerKeys = ["minimum-sdk": "preflight.minimum-sdk"]
        static let platforms = ["ios", "tvos", "watchos", "visionos", "macos"]

        var minimumSDK: [String: OSVersion] = [:]

        package init() {}

        package mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
            guard let floors = try mapping.mapping(key) else { return }
            for (platformNode, value) in floors.mapping {
                let platform = platformNode.scalar?.string ?? ""
                guard Self.platforms.contains(platform) else {
                    throw InputError(
                        path: mapping.file, line: platformNode.mark?.line,
                        message:
                            "'\(floors.context)' keys are platforms: \(Self.platforms.joined(separator: ", ")), not '\(platform)'"
                    )
                }
                let text = value.scalar?.string ?? ""
                let parts = text.split(separator: ".", omittingEmptySubsequences: false)
                guard (1...3).contains(parts.count),
                    parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                    let version = OSVersion(text)
                else {
                    throw InputError(
                        path: mapping.file, line: value.mark?.line,
                        message: "'\(floors.context).\(platform)' must be a version such as 18.0, not '\(text)'")
                }
                minimumSDK[platform] = version
            }
        }
    }

    package static let description = RuleDescription(
        id: "preflight-sdk-too-old",
        summary:
            "The app or an extension was built with an SDK older than App Store Connect's floor (or than the one announced next).",
        rationale: """
            Each spring Apple raises the oldest SDK App Store Connect takes uploads from (ITMS-90725: \
            "This app was built with the iOS 18.5 SDK. Starting April 2026, all iOS and iPadOS \
            apps must be built with the iOS 26 SDK or later"). The SDK of every device slice of \
            the executables of the app, its extensions, app clip and watch app (LC_BUILD_VERSION's \
            sdk, LC_VERSION_MIN_*'s) is compared with the floor in force on the day of the check, \
            from a dated table of Apple's announcements (docs/preflight.md), or with \
            rules.preflight-sdk-too-old.minimum-sdk for the platform. A floor announced for a later day is a \
            warning until then, as Apple's own e-mail is. Embedded frameworks built with an older \
            SDK are fine and never reported. Only for artifacts meant for the App Store \
            (bundle.distribution).
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90725: SDK version issue",
        fix: "archive with the Xcode that ships the required SDK (the floor's row in docs/preflight.md names it)",
        triggeringExamples: [
            RuleExample("upload 2026-06-01\n↓image Payload/App.app/App arm64 ios 15.0 18.5"),
            RuleExample(
                "upload 2026-06-01\nimage Payload/App.app/App arm64 ios 16.0 26.0\n↓image Payload/App.app/PlugIns/Widget.appex/Widget arm64 ios 16.0 17.5"
            ),
            RuleExample("upload 2026-01-15\n↓«warning»image Payload/App.app/App arm64 ios 15.0 18.5"),
            RuleExample(
                "upload 2024-05-01\n↓image Payload/App.app/Watch/W.app/W arm64 watchos 8.0 9.4\n↓«warning»image Payload/App.app/App arm64 ios 15.0 17.0"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "upload 2026-06-01\nimage Payload/App.app/App arm64 ios 15.0 26.0\nimage Payload/App.app/Frameworks/Old.framework/Old arm64 ios 12.0 16.4"
            ),
            RuleExample("upload 2025-01-15\nimage Payload/App.app/App arm64 ios 15.0 18.0"),
            RuleExample("upload 2026-06-01\nkind app\nimage Contents/MacOS/App arm64 macos 13.0 14.5"),
            RuleExample("upload 2026-06-01\nimage Payload/App.app/App arm64 ios 15.0 18.5\ndistribution ad-hoc")
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.bundles.filter(\.role.isApplicationLike).compactMap { app -> Finding? in
            guard let image = bundle.executable(of: app) else { return nil }
            let built = image.readSlices.compactMap { slice -> (platform: ApplePlatform, sdk: OSVersion)? in
                guard let platform = slice.platform, !platform.isSimulator, let sdk = slice.sdk else { return nil }
                return (platform, sdk)
            }
            guard let oldest = built.min(by: { $0.sdk < $1.sdk }),
                let key = StoreSDKFloors.configurationKey(oldest.platform)
            else { return nil }
            let name = oldest.platform.displayName
            let built_ = "\(bundle.shown(image)) was built with the \(name) \(oldest.sdk) SDK"
            if let configured = context.configuration.options(for: Self.self).minimumSDK[key] {
                guard oldest.sdk < configured else { return nil }
                return bundle.finding(
                    description, context.severity, at: image.path,
                    message:
                        "\(built_); rules.preflight-sdk-too-old.minimum-sdk requires the \(name) \(configured) SDK or later (ITMS-90725)",
                    fix: "archive with an Xcode that ships the \(name) \(configured) SDK or later", identity: "sdk")
            }
            guard
                let missed = StoreSDKFloors.table.missed(
                    for: oldest.platform, on: bundle.uploadDay, by: { oldest.sdk < $0.version })
            else { return nil }
            let (floor, sdk) = (missed.floor, missed.floor.value)
            if missed.inForce {
                return bundle.finding(
                    description, context.severity, at: image.path,
                    message:
                        "\(built_); since \(floor.since) App Store Connect takes only uploads built with the \(name) \(sdk.version) SDK or later, in Xcode \(sdk.xcode) or later (ITMS-90725)",
                    fix: "archive with Xcode \(sdk.xcode) or later", identity: "sdk")
            }
            var finding = bundle.finding(
                description, .warning, at: image.path,
                message:
                    "\(built_); starting \(floor.since) App Store Connect takes only uploads built with the \(name) \(sdk.version) SDK or later, in Xcode \(sdk.xcode) or later (ITMS-90725, announced)",
                fix: "move the release build to Xcode \(sdk.xcode) before \(floor.since)", identity: "sdk-next")
            finding.isDowngraded = true
            return finding
        }
    }
}
