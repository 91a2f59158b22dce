/// The platform a Mach-O slice was built for: `LC_BUILD_VERSION`'s platform number, or the
/// platform an `LC_VERSION_MIN_*` command implies. Named in the example text as ld64's
/// `-platform_version` names them (`ios`, `ios-simulator`, `mac-catalyst`, `xros`…).
package enum ApplePlatform: Sendable, Hashable {
    case macOS, iOS, tvOS, watchOS, bridgeOS, macCatalyst
    case iOSSimulator, tvOSSimulator, watchOSSimulator
    case driverKit, visionOS, visionOSSimulator
    /// A platform number this reader does not know.
    case other(UInt32)

    /// `LC_BUILD_VERSION`'s `platform` (`PLATFORM_*` in `<mach-o/loader.h>`).
    init(machO number: UInt32) {
        self = Self.byNumber[number] ?? .other(number)
    }

    private static let byNumber: [UInt32: ApplePlatform] = [
        1: .macOS, 2: .iOS, 3: .tvOS, 4: .watchOS, 5: .bridgeOS, 6: .macCatalyst, 7: .iOSSimulator, 8: .tvOSSimulator,
        9: .watchOSSimulator, 10: .driverKit, 11: .visionOS, 12: .visionOSSimulator
    ]

    private static let names: [(ApplePlatform, name: String, display: String)] = [
        (.macOS, "macos", "macOS"), (.iOS, "ios", "iOS"), (.tvOS, "tvos", "tvOS"), (.watchOS, "watchos", "watchOS"),
        (.bridgeOS, "bridgeos", "bridgeOS"), (.macCatalyst, "mac-catalyst", "Mac Catalyst"),
        (.iOSSimulator, "ios-simulator", "iOS Simulator"), (.tvOSSimulator, "tvos-simulator", "tvOS Simulator"),
        (.watchOSSimulator, "watchos-simulator", "watchOS Simulator"), (.driverKit, "driverkit", "DriverKit"),
        (.visionOS, "xros", "visionOS"), (.visionOSSimulator, "xros-simulator", "visionOS Simulator")
    ]

    /// ld64's name (`ios-simulator`), as the example text writes it.
    package init?(name: String) {
        guard let entry = Self.names.first(where: { $0.name == name }) else { return nil }
        self = entry.0
    }

    package var name: String {
        if case .other(let number) = self { return "platform-\(number)" }
        return Self.names.first { $0.0 == self }!.name
    }

    /// How messages name it: `iOS Simulator`.
    package var displayName: String {
        if case .other(let number) = self { return "platform \(number)" }
        return Self.names.first { $0.0 == self }!.display
    }

    /// A build for a simulator: it runs on a Mac, never on a device.
    package var isSimulator: Bool {
        [.iOSSimulator, .tvOSSimulator, .watchOSSimulator, .visionOSSimulator].contains(self)
    }

    /// The device platform a simulator stands in for (itself for device platforms): what an
    /// app's SDK floor and minimum OS are compared by.
    package var device: ApplePlatform {
        switch self {
        case .iOSSimulator: .iOS
        case .tvOSSimulator: .tvOS
        case .watchOSSimulator: .watchOS
        case .visionOSSimulator: .visionOS
        default: self
        }
    }

    /// The platform `LC_VERSION_MIN_*` implies: Intel slices of the iOS family were the simulator
    /// builds before `LC_BUILD_VERSION` existed.
    static func versionMinimum(_ platform: ApplePlatform, architecture: String) -> ApplePlatform {
        guard architecture.hasPrefix("x86_64") || architecture == "i386" else { return platform }
        switch platform {
        case .iOS: return .iOSSimulator
        case .tvOS: return .tvOSSimulator
        case .watchOS: return .watchOSSimulator
        default: return platform
        }
    }
}

/// An OS or SDK version (`17.5`, `15.0.1`): compared component by component, missing ones
/// being zero (`17` == `17.0`). Shown as written.
package struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var components: [Int]

    package init(_ components: [Int]) { self.components = components }

    /// `17.5`, `15.0.1`; nil unless one to three dot-separated non-negative integers.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && $0.count <= 9 })
        else { return nil }
        components = parts.map { Int($0)! }
    }

    /// `xxxx.yy.zz` packed in nibbles, as load commands store it: 0x00110500 is 17.5.
    init(packed: UInt32) {
        let patch = Int(packed & 0xFF)
        components = [Int(packed >> 16), Int((packed >> 8) & 0xFF)] + (patch == 0 ? [] : [patch])
    }

    package var description: String { components.map(String.init).joined(separator: ".") }

    package static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    package static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    package func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}
