import BinaryInspect
import ShipcheckCore

/// What one release artifact says about itself that the next release is compared on, whichever
/// store it goes to: who it is (identifier, version, build), what it runs on, what it links,
/// what it asks the user for, what it declares for privacy, and how big each part is. Built from
/// the readers' models (`BundleContents`, `AndroidArtifact`, an ELF file's facts) after the one
/// read that also runs the single-artifact rules, so `shipcheck diff` and `--previous` cost a
/// walk of each side, not two.
package struct ReleaseFacts: Sendable {
    /// How findings and the comparison name the artifact (`build/App-1.2.ipa`).
    package var root: String
    package var family: ArtifactFamilyName
    /// `ipa`, `app`, `xcarchive`, `apk`, `aab`, `aar`, `so`, `mach-o`, `elf`…
    package var kind: String
    /// Whether the artifact is what a store takes as an app upload (an `.ipa`, an `.apk`, an
    /// `.aab`): the upload rules (version, build) apply to it only.
    package var isUpload = false

    package var identity = Identity()
    /// `arm64`, `x86_64`, `arm64-v8a`…: every architecture or ABI an image is built for.
    package var architectures: [String] = []
    package var images: [Image] = []
    /// Third-party SDKs the artifact holds, by name (Apple's list of commonly used SDKs, and
    /// every embedded framework), each once.
    package var sdks: [SDK] = []
    /// Every library the images load or link, by name (`XCTest`, `libswiftCore.so`).
    package var linkedLibraries: [String] = []

    /// What the app asks the user or the system for: Android permissions, Apple entitlements
    /// (`key=value`) and usage descriptions (`NSCameraUsageDescription`).
    package var permissions: [String] = []
    package var entitlements: [String] = []
    package var usageDescriptions: [String] = []
    /// What its privacy manifests declare: required-reason API categories and tracking domains.
    package var requiredReasonCategories: [String] = []
    package var trackingDomains: [String] = []
    /// Android components other apps can start (`activity:com.example.Share`), and what the app
    /// asks to see of other apps (`package:com.example.wallet`).
    package var exportedComponents: [String] = []
    package var queries: [String] = []
    /// The `android:foregroundServiceType`s of the app's services (`location`, `camera`).
    package var foregroundServiceTypes: [String] = []
    /// Every regular file inside the artifact with its sizes (a single binary: itself).
    package var entries: [Entry] = []

    package init(root: String, family: ArtifactFamilyName, kind: String) {
        self.root = root
        self.family = family
        self.kind = kind
    }

    /// Identifier, versions and what the release runs on, with the file that states them.
    package struct Identity: Sendable, Hashable {
        /// `CFBundleIdentifier` of the app, or the manifest's `package`.
        package var identifier: String?
        /// `CFBundleShortVersionString`, or `versionName`.
        package var version: String?
        /// `CFBundleVersion`, or `versionCode`.
        package var build: String?
        /// The platform's minimum: `iOS 15.0`, `API 24`.
        package var minimumOS: MinimumOS?
        /// The SDK the app was built with (Apple) or targets (Android's `targetSdkVersion`).
        package var targetSDK: String?
        /// `iOS`, `watchOS`…; Android's form factor.
        package var platforms: [String] = []
        /// `UIDeviceFamily`: `iPhone`, `iPad`…
        package var deviceFamilies: [String] = []
        /// The file inside the artifact that states the identifier and versions (`Payload/App.app/Info.plist`,
        /// `base/manifest/AndroidManifest.xml`): where findings about them point.
        package var statedIn = ""

        package init() {}
    }

    /// A platform and its lowest version (`iOS 15.0`; Android: `API 24`).
    package struct MinimumOS: Sendable, Hashable, CustomStringConvertible {
        package var platform: String
        package var version: [Int]

        package init(platform: String, version: [Int]) {
            self.platform = platform
            self.version = version
        }

        package var description: String {
            platform == "Android"
                ? "API \(version.first ?? 0)" : "\(platform) \(version.map(String.init).joined(separator: "."))"
        }

        /// Whether `self` asks more of a device than `other` on the same platform.
        package func isHigher(than other: MinimumOS) -> Bool {
            platform == other.platform && OSVersion(other.version) < OSVersion(version)
        }
    }

    /// One architecture or ABI of one binary, with its size by segment and section.
    package struct Image: Sendable, Hashable {
        /// The file inside the artifact ("" when the artifact is this one file).
        package var path: String
        /// `arm64`, `arm64-v8a`; with a static-archive member, `arm64(member.o)`.
        package var architecture: String
        /// Segments (Mach-O) or loadable program headers (ELF) by name, with their file sizes.
        package var segments: [Part] = []
        /// Sections by name (`__TEXT,__text`, `.text`), with their sizes.
        package var sections: [Part] = []
        /// The listed or embedded SDKs whose code the image holds.
        package var sdks: [String] = []
        /// The modules of the libraries it loads (`XCTest`, `log`).
        package var libraries: [String] = []

        package init(path: String, architecture: String) {
            self.path = path
            self.architecture = architecture
        }

        /// How comparisons key the image: one row per file and architecture.
        package var key: String { path.isEmpty ? architecture : "\(path) (\(architecture))" }
    }

    /// A named part of an image and its size in bytes.
    package struct Part: Sendable, Hashable {
        package var name: String
        package var size: UInt64

        package init(name: String, size: UInt64) {
            self.name = name
            self.size = size
        }
    }

    /// A third-party SDK as the release carries it.
    package struct SDK: Sendable, Hashable {
        /// The name on Apple's list (`Alamofire`), else the framework's (`Core`).
        package var name: String
        /// Whether Apple lists it as a commonly used SDK (ITMS-91061 / 91065 apply).
        package var isListed: Bool
        /// Where it is (`Payload/App.app/Frameworks/Alamofire.framework`), or the image it is linked into.
        package var path: String
        /// `CFBundleShortVersionString` of its framework, when it says.
        package var version: String?

        package init(name: String, isListed: Bool, path: String, version: String? = nil) {
            self.name = name
            self.isListed = isListed
            self.path = path
            self.version = version
        }
    }

    /// A regular file inside the artifact: its size in the download (compressed, as the zip
    /// stores it; on disk, the file's size) and installed (uncompressed).
    package struct Entry: Sendable, Hashable {
        package var path: String
        package var download: UInt64
        package var install: UInt64

        package init(path: String, download: UInt64, install: UInt64) {
            self.path = path
            self.download = download
            self.install = install
        }

        /// The artifact's file inside it, as its reader listed it (a zip's central directory,
        /// a folder's sizes on disk).
        package init(path: String, _ size: EntrySize) {
            self.init(path: path, download: size.compressed, install: size.uncompressed)
        }
    }

    /// Every listed file with its sizes, in path order.
    static func entries(_ sizes: [String: EntrySize]) -> [Entry] {
        sizes.sorted { $0.key < $1.key }.map { Entry(path: $0.key, $0.value) }
    }
}

/// Which readers an artifact belongs to: two releases compare only within one.
package enum ArtifactFamilyName: String, Sendable, Hashable {
    case apple = "Apple"
    case android = "Android"
    case elf = "ELF"

    /// The store that takes its apps, when it has one.
    package var store: String? {
        switch self {
        case .apple: "App Store Connect"
        case .android: "Google Play"
        case .elf: nil
        }
    }
}

extension Array where Element: Comparable & Hashable {
    /// The elements, each once, sorted: how fact lists are kept so two releases compare as sets.
    package var sortedUnique: [Element] { Set(self).sorted() }
}
