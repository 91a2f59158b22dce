import BinaryInspect
import ShipcheckCore

/// Simulator, Intel and macOS slices in the images of an iOS-family app.
package enum UnsupportedArchitectureRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-unsupported-architecture",
        summary: "An image inside an iOS, tvOS, watchOS or visionOS app has a simulator, x86_64 / i386 or macOS slice.",
        rationale: """
            App Store Connect refuses an app whose images hold slices no device runs (ITMS-90087: \
            "The executable for App.app/Frameworks/SDK.framework contains unsupported \
            architectures '[x86_64, i386]'"): a "fat" framework built for device and simulator \
            and embedded as it is. For every image inside an app of the iOS family (the app's \
            own executable says which platform it is for, else its Info.plist), every slice is \
            read: an LC_BUILD_VERSION platform of a simulator (iOS Simulator, tvOS Simulator…, \
            including arm64 simulator slices), an x86_64 or i386 slice, or a macOS slice is \
            reported, one finding per image naming them. A standalone .xcframework legitimately \
            holds simulator libraries and is never reported; nor are macOS and Mac Catalyst apps. \
            Only for artifacts meant for the App Store (bundle.distribution).
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90087: Unsupported Architectures",
        fix:
            "embed the framework from an .xcframework (Xcode picks the device library), or remove the extra slices with lipo -remove before signing",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/SDK.framework/SDK arm64 ios 16.0 26.0\n↓image Payload/App.app/Frameworks/SDK.framework/SDK x86_64 ios-simulator 16.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\n↓image Payload/App.app/Frameworks/Sim.framework/Sim arm64 ios-simulator 16.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\n↓image Payload/App.app/Frameworks/Old.framework/Old i386"
            ),
            RuleExample(
                "kind xcarchive\nimage Products/Applications/App.app/App arm64 ios 16.0 26.0\n↓image Products/Applications/App.app/PlugIns/W.appex/W arm64 macos 13.0 26.0"
            )
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/SDK.framework/SDK arm64 ios 16.0 26.0"
            ),
            RuleExample(
                "kind xcframework\nimage ios-arm64/SDK.framework/SDK arm64 ios 16.0 26.0\nimage ios-arm64_x86_64-simulator/SDK.framework/SDK arm64 ios-simulator 16.0 26.0\nimage ios-arm64_x86_64-simulator/SDK.framework/SDK x86_64 ios-simulator 16.0 26.0"
            ),
            RuleExample(
                "kind app\nimage Contents/MacOS/App x86_64 macos 13.0 26.0\nimage Contents/MacOS/App arm64 macos 13.0 26.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/SDK.framework/SDK x86_64 ios-simulator 16.0 26.0\ndistribution ad-hoc"
            )
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.imagesInApplications.compactMap { image, app in
            guard let platform = bundle.platform(of: app), platform.isMobileFamily else { return nil }
            let refused = image.slices.compactMap { slice -> String? in
                if let sliced = slice.platform, sliced.isSimulator {
                    return "\(slice.displayName) (\(sliced.displayName))"
                }
                if ["x86_64", "x86_64h", "i386"].contains(slice.architecture) { return slice.displayName }
                if slice.platform == .macOS || slice.platform == .macCatalyst {
                    return "\(slice.displayName) (\(slice.platform!.displayName))"
                }
                return nil
            }
            guard !refused.isEmpty else { return nil }
            return bundle.finding(
                description, context.severity, at: image.path,
                message:
                    "\(bundle.shown(image)) contains unsupported architectures '[\(refused.joined(separator: ", "))]' in \(platform.device == .iOS ? "an" : "a") \(platform.device.displayName) app (ITMS-90087)",
                fix:
                    "embed the device library of an .xcframework, or remove these slices (lipo -remove) before signing",
                identity: "unsupported-architecture")
        }
    }
}
