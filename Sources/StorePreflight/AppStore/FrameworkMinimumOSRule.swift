import BinaryInspect
import ShipcheckCore

/// An embedded framework that needs a newer OS than the app that embeds it.
package enum FrameworkMinimumOSRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-framework-minimum-os",
        summary: "An embedded framework's minimum OS is newer than the app's (or extension's) that embeds it.",
        rationale: """
            A framework built for a newer OS than its app runs on is loaded on the older OS too, \
            and crashes it at launch when it reaches an API the older OS lacks; App Store Connect \
            refuses such bundles when the framework's Info.plist says so (ITMS-90208: "The bundle \
            App.app/Frameworks/X.framework does not support the minimum OS Version specified in the \
            Info.plist"). For every framework and dylib inside an app, its minimum OS — the \
            highest of its slices' LC_BUILD_VERSION minos and its Info.plist's MinimumOSVersion — \
            is compared with the minimum OS of the executable of the app, extension or watch app \
            it is embedded in, platform by platform. Reported for every distribution: it is a crash.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90208: Invalid Bundle (minimum OS), and a crash at launch on the older OS",
        fix: "raise the app's deployment target to the framework's, or take a build of the framework for the app's",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓image Payload/App.app/Frameworks/Core.framework/Core arm64 ios 17.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64_32 watchos 9.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64 watchos 26.0 26.0\n↓image Payload/App.app/Watch/W.app/Frameworks/K.framework/K arm64_32 watchos 10.0 26.0\nimage Payload/App.app/Watch/W.app/Frameworks/K.framework/K arm64 watchos 26.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓image Payload/App.app/Frameworks/Core.framework/Core arm64 ios 15.0 26.0\nplist Payload/App.app/Frameworks/Core.framework/Info.plist {MinimumOSVersion = 16.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\nimage Payload/App.app/PlugIns/W.appex/W arm64 ios 14.0 26.0\n↓image Payload/App.app/PlugIns/W.appex/Frameworks/Kit.framework/Kit arm64 ios 15.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 15.0 26.0\n↓image Payload/App.app/Frameworks/libdep.dylib arm64 ios 16.4 26.0\ndistribution development"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/Core.framework/Core arm64 ios 12.0 16.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/Core.framework/Core arm64 ios 16.0 26.0\nplist Payload/App.app/Frameworks/Core.framework/Info.plist {MinimumOSVersion = 16.0;}"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64 watchos 9.0 26.0\nimage Payload/App.app/Watch/W.app/Frameworks/K.framework/K arm64 watchos 9.0 26.0"
            ),
            RuleExample("kind xcframework\nimage ios-arm64/Core.framework/Core arm64 ios 17.0 26.0"),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64_32 watchos 9.0 26.0\nimage Payload/App.app/Watch/W.app/W arm64 watchos 26.0 26.0\nimage Payload/App.app/Watch/W.app/Frameworks/K.framework/K arm64_32 watchos 9.0 26.0\nimage Payload/App.app/Watch/W.app/Frameworks/K.framework/K arm64 watchos 26.0 26.0"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        bundle.images.compactMap { image -> Finding? in
            guard !image.isBundleExecutable || bundle.bundle(at: image.bundle ?? "")?.role == .framework,
                let host = bundle.enclosingBundles(of: image.path).first(where: { $0.role.isApplicationLike }),
                let hostImage = bundle.executable(of: host), hostImage.path != image.path
            else { return nil }
            let declared = image.bundle.flatMap { bundle.bundle(at: $0) }.flatMap {
                $0.role == .framework ? $0.info("MinimumOSVersion").flatMap(OSVersion.init) : nil
            }
            for slice in image.readSlices {
                guard let platform = slice.platform?.device, let own = slice.minimumOS else { continue }
                // The device loads the framework's slice of the architecture it runs the app's in:
                // a watch app's arm64 slice starts at watchOS 26 beside an arm64_32 one for 9.
                let hostSlices = hostImage.readSlices.filter { $0.platform?.device == platform }
                let sameArchitecture = hostSlices.filter { $0.architecture == slice.architecture }
                let hostMinimum = (sameArchitecture.isEmpty ? hostSlices : sameArchitecture).compactMap(\.minimumOS)
                    .min()
                guard let hostMinimum else { continue }
                let needed = max(own, declared ?? own)
                guard needed > hostMinimum else { continue }
                let source =
                    needed == own
                    ? "its \(slice.versionCommand ?? "load commands") minos" : "its Info.plist's MinimumOSVersion"
                return bundle.finding(
                    description, context.severity, at: image.path,
                    message:
                        "\(bundle.shown(image)) needs \(platform.displayName) \(needed) (\(source)), but \(bundle.displayName(host.path)) runs from \(platform.displayName) \(hostMinimum): it crashes at launch there (ITMS-90208)",
                    fix:
                        "raise \(bundle.displayName(host.path))'s deployment target to \(needed), or embed a build of the framework for \(hostMinimum)",
                    identity: "framework-minimum-os")
            }
            return nil
        }
    }
}
