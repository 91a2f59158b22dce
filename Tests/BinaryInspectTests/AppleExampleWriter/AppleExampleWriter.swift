import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckTestSupport

/// Writes the artifact an example text describes, in the layout of its kind: a folder (`.app`,
/// `.framework`, `.xcframework`, `.xcarchive`, `.appex`), a zip for `ipa` (ZIPFoundation), or
/// one Mach-O file for `binary`. Info.plists are binary property lists, privacy manifests XML,
/// profiles CMS envelopes, each image a real Mach-O (`MachOSliceWriter`: a universal file for
/// several slices, a static archive for `member=` slices) with its entitlements in its code
/// signature, each dSYM an `MH_DSYM` file. The distribution is what `.shipcheck.yml` would say.
struct AppleExampleWriter {
    /// What was written: where, the model it was written from (the example's, completed) and
    /// the places the example's lines declare under the real root.
    struct Written {
        /// Holds the artifact: it is removed when the last copy of this goes.
        var directory: TemporaryDirectory
        var root: String
        var model: BundleContents
        var places: ExamplePlaces
        var configuration: Configuration
    }

    let directory: TemporaryDirectory

    func write(example text: String) throws -> Written {
        let kind = try BundleContents(example: text).kind
        let name = kind == .binary ? "artifact/Example" : "Example.\(kind.rawValue)"
        let root = "\(directory.path)/\(name)"
        let (example, places) = try BundleContents.example(text, root: root)
        let model = Self.completed(example)
        let folder = kind == .ipa ? "stage" : name
        for (path, bytes) in try files(of: model) {
            directory.write(path.isEmpty ? folder : "\(folder)/\(path)", bytes: bytes)
        }
        if kind == .ipa { BundleAssembler(directory).zip(folder, to: name) }
        var configuration = Configuration()
        if model.distribution.source == "example" {
            var settings = BundleSettings()
            settings.distribution = model.distribution.method
            configuration.setSettings(settings)
        }
        return Written(directory: directory, root: root, model: model, places: places, configuration: configuration)
    }

    /// Every file of the artifact, by its path inside it ("" for a single binary).
    private func files(of model: BundleContents) throws -> [(String, [UInt8])] {
        var written: [String: [UInt8]] = [:]
        for path in model.files { written[path] = Array("\(path)\n".utf8) }
        for (path, values) in model.infoPlists { written[path] = PropertyListWriter.binary(Self.foundation(values)) }
        for (path, document) in model.privacyManifests {
            switch document {
            case .parsed(let value): written[path] = PropertyListWriter.xml(Self.foundation(value))
            case .unreadable(let message):
                written[path] = message.hasSuffix("empty") ? [] : Array("<plist><dict><key>".utf8)
            }
        }
        for (path, profile) in model.profiles { written[path] = Self.profile(profile) }
        var entitlements: [String: [String: String]] = [:]
        for (path, values) in model.entitlements { entitlements[path, default: [:]].merge(values) { $1 } }
        for image in model.images {
            written[image.path] = try Self.bytes(of: image, entitlements: entitlements[image.path])
        }
        for file in model.debugSymbols {
            let slices = try file.uuids.map { entry throws(ExampleWriteError) in
                var slice = ImageSlice(architecture: entry.architecture)
                slice.uuid = entry.uuid
                return (
                    entry.architecture,
                    try MachOSliceWriter(slice: slice, entitlements: nil, isDebugSymbols: true).bytes()
                )
            }
            written[file.path] = slices.count == 1 ? slices[0].1 : try UniversalWriter.file(slices)
        }
        return written.sorted { $0.key < $1.key }
    }

    /// One image file: a thin Mach-O, a universal file of its slices, or (slices with members)
    /// a static archive per architecture.
    static func bytes(of image: BundleImage, entitlements: [String: String]?) throws(ExampleWriteError) -> [UInt8] {
        let members = image.slices.compactMap(\.member)
        if !members.isEmpty {
            guard members.count == image.slices.count else {
                throw ExampleWriteError(description: "\(image.path): archive members beside linked slices")
            }
            var architectures: [String] = []
            var byArchitecture: [String: [(name: String, bytes: [UInt8])]] = [:]
            for slice in image.slices {
                if byArchitecture[slice.architecture] == nil { architectures.append(slice.architecture) }
                byArchitecture[slice.architecture, default: []].append(
                    (slice.member!, try MachOSliceWriter(slice: slice, entitlements: entitlements).bytes()))
            }
            let archives = architectures.map { ($0, ArchiveWriter.archive(byArchitecture[$0]!)) }
            return archives.count == 1 ? archives[0].1 : try UniversalWriter.file(archives)
        }
        let slices = try image.slices.map { slice throws(ExampleWriteError) in
            (slice.architecture, try MachOSliceWriter(slice: slice, entitlements: entitlements).bytes())
        }
        return slices.count == 1 ? slices[0].1 : try UniversalWriter.file(slices)
    }

    /// The profile's property list as Xcode's profiles carry it: its devices (or
    /// `ProvisionsAllDevices`) and its entitlements.
    private static func profile(_ profile: ProvisioningProfile) -> [UInt8] {
        var plist: [String: Any] = ["Entitlements": PropertyListWriter.entitlementValues(profile.entitlements)]
        if let name = profile.name { plist["Name"] = name }
        if profile.kind == .enterprise { plist["ProvisionsAllDevices"] = true }
        if profile.deviceCount > 0 {
            plist["ProvisionedDevices"] = (0..<profile.deviceCount).map { String(format: "00008101-%016X", $0) }
        }
        return ProfileWriter.profile(plist)
    }

    static func foundation(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): number
        case .real(let number): number
        case .boolean(let flag): flag
        case .date(let date): date
        case .data(let bytes): Data(bytes)
        case .array(let items): items.map(foundation)
        case .dictionary(let entries): foundation(entries)
        }
    }

    static func foundation(_ dictionary: [String: PropertyListValue]) -> [String: Any] {
        dictionary.mapValues(foundation)
    }

    /// The example's model with what every real artifact of its kind has and the example leaves
    /// out: a binary for entitlements to be signed into, and an executable for an app,
    /// extension or framework without any binary (the walker refuses such a bundle as hollow).
    /// These are minimal (arm64, signed, no platform): a rule reporting one of them reports a
    /// place no line of the example declares, and fails.
    static func completed(_ example: BundleContents) -> BundleContents {
        var model = example
        func add(_ path: String) {
            var slice = ImageSlice(architecture: "arm64")
            let name = path.split(separator: "/").last ?? ""
            slice.fileType = name.hasSuffix(".dylib") || path.contains(".framework/") ? .sharedLibrary : .executable
            slice.hasCodeSignature = true
            model.images.append(BundleImage(path: path, slices: [slice]))
            if !model.files.contains(path) { model.files.append(path) }
        }
        for (path, _) in model.entitlements where model.image(at: path) == nil { add(path) }
        model.assembleBundles()
        for bundle in model.bundles
        where (bundle.role.isApplicationLike || bundle.role == .framework)
            && !model.images.contains(where: { $0.bundle == bundle.path })
        {
            let folder = bundle.path.isEmpty ? "" : bundle.path + "/"
            let name =
                bundle.info("CFBundleExecutable") ?? bundle.name.split(separator: ".").dropLast().joined(separator: ".")
            add(folder + (bundle.infoPlistPath == folder + "Contents/Info.plist" ? "Contents/MacOS/" : "") + name)
        }
        model.assembleBundles()
        return model
    }
}
