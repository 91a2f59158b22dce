import BinaryInspect
import ShipcheckCore

/// The oldest SDK App Store Connect takes uploads from, by platform and since when, as Apple
/// announced them (developer.apple.com/news/upcoming-requirements; every row names its
/// announcement). Read 2026-11-26; macOS apps have no floor in any of them. A floor announced
/// after that is not here until this table is updated: set `rules.preflight-sdk-too-old.minimum-sdk` meanwhile.
/// docs/preflight.md lists the rows.
package enum StoreSDKFloors {
    /// What one announcement asks of a platform's uploads: the SDK, the Xcode that ships it, and
    /// the announcement.
    package struct SDK: Sendable {
        package var version: OSVersion
        package var xcode: String
        package var source: String
    }

    private static func announcement(_ since: String, xcode: String, source: String, _ sdks: [(ApplePlatform, String)])
        -> (since: String, floors: [(ApplePlatform, SDK)])
    {
        (since, sdks.map { ($0.0, SDK(version: OSVersion($0.1)!, xcode: xcode, source: source)) })
    }

    package static let table = DatedFloors<ApplePlatform, SDK>([
        announcement(
            "2023-04-25", xcode: "14.1", source: "https://developer.apple.com/news/upcoming-requirements/?id=04252023a",
            [(.iOS, "16.1"), (.watchOS, "9.1")]),
        announcement(
            "2023-07-31", xcode: "14.1", source: "https://developer.apple.com/news/upcoming-requirements/?id=07312023a",
            [(.tvOS, "16.1")]),
        announcement(
            "2024-04-29", xcode: "15", source: "https://developer.apple.com/news/?id=khzvxn8a",
            [(.iOS, "17.0"), (.tvOS, "17.0"), (.watchOS, "10.0")]),
        announcement(
            "2025-04-24", xcode: "16", source: "https://developer.apple.com/news/upcoming-requirements/",
            [(.iOS, "18.0"), (.tvOS, "18.0"), (.visionOS, "2.0"), (.watchOS, "11.0")]),
        announcement(
            "2026-04-28", xcode: "26", source: "https://developer.apple.com/news/?id=ueeok6yw",
            [(.iOS, "26.0"), (.tvOS, "26.0"), (.visionOS, "26.0"), (.watchOS, "26.0")])
    ])

    /// The `rules.preflight-sdk-too-old.minimum-sdk` key of a platform.
    static func configurationKey(_ platform: ApplePlatform) -> String? {
        switch platform {
        case .iOS: "ios"
        case .tvOS: "tvos"
        case .watchOS: "watchos"
        case .visionOS: "visionos"
        case .macOS: "macos"
        default: nil
        }
    }
}
