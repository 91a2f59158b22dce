import BinaryInspect
import ShipcheckCore
import StorePreflight

extension ReleaseFacts {
    /// The facts of an Apple artifact read into the bundle model: the app's (else the
    /// artifact's own bundle's) Info.plist for identity, every read slice for architectures,
    /// sizes and libraries, the frameworks and Apple's SDK list for SDKs, the signed binaries'
    /// entitlements, and every privacy manifest.
    package init(apple bundle: BundleContents) {
        self.init(root: bundle.root, family: .apple, kind: bundle.kind.rawValue)
        isUpload = bundle.kind == .ipa || bundle.kind == .xcarchive
        let main = bundle.mainApplication ?? bundle.bundle(at: "")
        identity.identifier = main?.info("CFBundleIdentifier")
        identity.version = main?.info("CFBundleShortVersionString")
        identity.build = main?.info("CFBundleVersion")
        identity.statedIn = main?.infoPlistPath ?? ""
        identity.deviceFamilies =
            (main?.infoPlist["UIDeviceFamily"]?.array ?? []).compactMap {
                $0.scalarText.flatMap { Int($0) }.map(Self.deviceFamily)
            }.sortedUnique
        let executable = main.flatMap(bundle.executable(of:)) ?? (bundle.kind == .binary ? bundle.images.first : nil)
        if let slice = executable?.readSlices.first(where: { $0.platform != nil }), let platform = slice.platform {
            let minimum = main?.info("MinimumOSVersion").flatMap { OSVersion($0) } ?? slice.minimumOS
            identity.minimumOS = minimum.map { MinimumOS(platform: platform.displayName, version: $0.components) }
            identity.targetSDK = slice.sdk.map { "\(platform.displayName) \($0)" }
        }
        let slices = bundle.images.flatMap(\.readSlices)
        identity.platforms = slices.compactMap { $0.platform?.displayName }.sortedUnique
        architectures = bundle.images.flatMap { $0.slices.map(\.architecture) }.sortedUnique
        linkedLibraries = slices.flatMap { $0.libraries.map(\.module) }.sortedUnique
        sdks = Self.sdks(of: bundle)
        images = bundle.images.flatMap { image in Self.images(of: image, sdks: sdks) }
        entitlements =
            bundle.entitlements.flatMap { entry in entry.values.map { "\($0.key)=\($0.value)" } }.sortedUnique
        usageDescriptions =
            bundle.bundles.flatMap { nested in
                nested.infoPlist.keys.filter(Self.isUsageDescription)
            }.sortedUnique
        for document in bundle.privacyManifests.values {
            requiredReasonCategories += BundleContents.read(document).declared.keys.map(\.rawValue)
            trackingDomains += (document.value?["NSPrivacyTrackingDomains"]?.array ?? []).compactMap(\.string)
        }
        requiredReasonCategories = requiredReasonCategories.sortedUnique
        trackingDomains = trackingDomains.sortedUnique
        entries = Self.entries(bundle.entrySizes)
    }

    /// One image per architecture of a file: a static archive's members are added up by segment
    /// and section (members come and go with the sources; the library is what ships).
    private static func images(of image: BundleImage, sdks: [SDK]) -> [Image] {
        var byArchitecture: [String: Image] = [:]
        var order: [String] = []
        for slice in image.readSlices {
            var facts = byArchitecture[slice.architecture] ?? Image(path: image.path, architecture: slice.architecture)
            if byArchitecture[slice.architecture] == nil { order.append(slice.architecture) }
            // An object file's one segment has no name.
            let segments = slice.segments.map {
                Part(name: $0.name.isEmpty ? "(object file)" : $0.name, size: $0.fileSize)
            }
            facts.segments = adding(segments, to: facts.segments)
            facts.sections = adding(slice.sections.map { Part(name: $0.fullName, size: $0.size) }, to: facts.sections)
            facts.libraries = (facts.libraries + slice.libraries.map(\.module)).sortedUnique
            byArchitecture[slice.architecture] = facts
        }
        let held = sdks.filter { $0.path == image.path || image.path.hasPrefix($0.path + "/") }.map(\.name)
        return order.compactMap { byArchitecture[$0] }.map { facts in
            var image = facts
            image.sdks = held
            return image
        }
    }

    /// `parts` added to `sums` by name, in the order names first appear.
    private static func adding(_ parts: [Part], to sums: [Part]) -> [Part] {
        var result = sums
        for part in parts {
            if let index = result.firstIndex(where: { $0.name == part.name }) {
                result[index].size &+= part.size
            } else {
                result.append(part)
            }
        }
        return result
    }

    /// `NSCameraUsageDescription`, `NFCReaderUsageDescription`: the purpose strings the system
    /// shows when the app asks for access.
    static func isUsageDescription(_ key: String) -> Bool {
        key.hasSuffix("UsageDescription") || key == "NSLocationTemporaryUsageDescriptionDictionary"
    }

    /// `UIDeviceFamily`'s numbers, as Xcode names them.
    static func deviceFamily(_ number: Int) -> String {
        switch number {
        case 1: "iPhone"
        case 2: "iPad"
        case 3: "Apple TV"
        case 4: "Apple Watch"
        case 6: "Mac (Catalyst)"
        case 7: "Apple Vision"
        default: "device family \(number)"
        }
    }

    /// Every framework the artifact embeds (listed or not, with its version), and every SDK on
    /// Apple's list whose code is linked into another image, each once by name.
    private static func sdks(of bundle: BundleContents) -> [SDK] {
        var found: [String: SDK] = [:]
        for framework in bundle.bundles where framework.role == .framework {
            let listed = ListedSDKs.entry(named: framework.name)
            let name = listed ?? String(framework.name.prefix { $0 != "." })
            found[name] =
                found[name]
                ?? SDK(
                    name: name, isListed: listed != nil, path: framework.path,
                    version: framework.info("CFBundleShortVersionString"))
        }
        for (image, entry, _) in bundle.listedSDKsLinkedIntoOtherImages where found[entry] == nil {
            found[entry] = SDK(name: entry, isListed: true, path: image.path)
        }
        return found.values.sorted { $0.name < $1.name }
    }
}
