import BinaryInspect
import ShipcheckCore

/// What several pre-flight rules ask of the model.
extension BundleContents {
    /// The platform an app, extension or framework is built for: its executable's slices (a
    /// simulator slice answers with the simulator), else its Info.plist
    /// (`CFBundleSupportedPlatforms`, `DTPlatformName`).
    package func platform(of bundle: NestedBundle) -> ApplePlatform? {
        if let slices = executable(of: bundle)?.readSlices,
            let platform = slices.lazy.compactMap(\.platform).first(where: { !$0.isSimulator })
                ?? slices.lazy.compactMap(\.platform).first
        {
            return platform
        }
        let declared =
            bundle.infoPlist["CFBundleSupportedPlatforms"]?.array?.first?.string ?? bundle.info("DTPlatformName")
        return declared.flatMap { ApplePlatform(infoPlistName: $0) }
    }

    /// The images inside the artifact's apps (the app's own, its extensions', its frameworks').
    var imagesInApplications: [(image: BundleImage, app: NestedBundle)] {
        images.compactMap { image in application(holding: image.path).map { (image, $0) } }
    }

    /// `Payload/App.app/Frameworks/Core.framework/Core` as a message shows it: from the app's
    /// folder on (as App Store Connect's e-mails name files), or the artifact for a single file.
    package func shown(_ image: BundleImage) -> String { displayName(image.path) }
}

extension ApplePlatform {
    /// `CFBundleSupportedPlatforms` / `DTPlatformName` values (`iPhoneOS`, `iphonesimulator`).
    init?(infoPlistName name: String) {
        switch name.lowercased() {
        case "iphoneos": self = .iOS
        case "iphonesimulator": self = .iOSSimulator
        case "macosx": self = .macOS
        case "appletvos": self = .tvOS
        case "appletvsimulator": self = .tvOSSimulator
        case "watchos": self = .watchOS
        case "watchsimulator": self = .watchOSSimulator
        case "xros": self = .visionOS
        case "xrsimulator": self = .visionOSSimulator
        default: return nil
        }
    }

    /// The platforms the App Store's iOS-family rules are about (devices that run no Intel or
    /// simulator code).
    package var isMobileFamily: Bool { [.iOS, .tvOS, .watchOS, .visionOS].contains(device) }
}

extension Array where Element == String {
    /// `'a', 'b', 'c'` and how many more: names in a message.
    package func quotedList(limit: Int = 3) -> String {
        let shown = prefix(limit).map { "'\($0)'" }.joined(separator: ", ")
        return count > limit ? "\(shown) and \(count - limit) more" : shown
    }
}
