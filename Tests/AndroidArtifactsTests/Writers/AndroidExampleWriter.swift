import AndroidArtifacts
import BinaryInspect
import ShipcheckTestSupport

/// Writes an `AndroidArtifact` (what a rule example's text parses into) as the files a build
/// produces, for the production readers to read back: the container of its kind (an APK, App
/// Bundle, APK set or AAR zip, a loose library, a jniLibs folder), each manifest in its kind's
/// encoding, `BundleConfig.pb`, each library as an ELF file (`ELFLibraryWriter`) stored at its
/// zip data offset or deflated, and every other listed file.
///
/// A zip artifact whose example states no manifest gets an empty one (`<manifest>` with an
/// `<application>`): every real APK, bundle and AAR has one, and without it the reader rightly
/// refuses the artifact. `expectedReading` says so, and says what else the readers cannot
/// report back.
enum AndroidExampleWriter {
    /// Writes the artifact into `directory`; returns the path of its root.
    static func write(_ artifact: AndroidArtifact, into directory: TemporaryDirectory) throws -> String {
        let full = expectedManifests(artifact)
        switch artifact.kind {
        case .library:
            return directory.write(artifact.root, bytes: libraryBytes(artifact.libraries.first?.elf))
        case .libraryFolder:
            for library in artifact.libraries {
                directory.write("\(artifact.root)/\(library.path)", bytes: libraryBytes(library.elf))
            }
            for file in otherFiles(artifact) { directory.write("\(artifact.root)/\(file)", bytes: filler(file)) }
            return directory.path + "/" + artifact.root
        case .apks:
            var outer = ZipWriter()
            let apks = Set((full.map(\.path) + artifact.files).compactMap(apkPath)).sorted()
            for apk in apks {
                var inner = ZipWriter()
                let prefix = apk + "/"
                try fill(
                    &inner, kind: .apk,
                    manifests: full.filter { $0.path.hasPrefix(prefix) }.map {
                        ($0.path.dropPrefix(prefix), $0.manifest)
                    },
                    libraries: artifact.libraries.filter { $0.path.hasPrefix(prefix) }.map {
                        ($0.path.dropPrefix(prefix), $0)
                    },
                    files: otherFiles(artifact).filter { $0.hasPrefix(prefix) }.map { $0.dropPrefix(prefix) })
                try outer.store(apk, inner.bytes)
            }
            for file in otherFiles(artifact) where apkPath(file) == nil { try outer.deflate(file, filler(file)) }
            return directory.write(artifact.root, bytes: outer.bytes)
        case .apk, .aab, .aar:
            var zip = ZipWriter()
            if artifact.kind == .aab, let config = artifact.bundleConfig {
                try zip.deflate(config.path, try bundleConfig(config))
            }
            try fill(
                &zip, kind: artifact.kind, manifests: full.map { ($0.path, $0.manifest) },
                libraries: artifact.libraries.map { ($0.path, $0) }, files: otherFiles(artifact))
            return directory.write(artifact.root, bytes: zip.bytes)
        }
    }

    /// The manifests the written artifact holds: the example's, or the empty one a zip
    /// artifact without any gets.
    static func expectedManifests(_ artifact: AndroidArtifact) -> [AndroidArtifact.ModuleManifest] {
        guard artifact.manifests.isEmpty else { return artifact.manifests }
        let path: String
        switch artifact.kind {
        case .apk, .aar: path = "AndroidManifest.xml"
        case .aab: path = "base/manifest/AndroidManifest.xml"
        case .apks: path = "splits/base-master.apk/AndroidManifest.xml"
        case .library, .libraryFolder: return []
        }
        let module = path.split(separator: "/").dropLast().joined(separator: "/")
        return [.init(path: path, module: artifact.kind == .aab ? "base" : module, manifest: AndroidManifest())]
    }

    /// The manifests, other files and libraries (in that order) of one zip in its encoding.
    private static func fill(
        _ zip: inout ZipWriter, kind: AndroidArtifactKind, manifests: [(String, AndroidManifest)],
        libraries: [(String, NativeLibrary)], files: [String]
    ) throws {
        for (path, manifest) in manifests {
            switch kind {
            case .aab: try zip.deflate(path, try ManifestWriter.protobuf(manifest))
            case .aar: try zip.deflate(path, ManifestWriter.text(manifest))
            default: try zip.deflate(path, ManifestWriter.binary(manifest))
            }
        }
        for file in files { try zip.deflate(file, filler(file)) }
        for (path, library) in libraries {
            let bytes = libraryBytes(library.elf)
            switch library.storage {
            case .stored(let offset)?: try zip.store(path, bytes, dataOffset: offset)
            case .deflated?, nil: try zip.deflate(path, bytes)
            }
        }
    }

    /// bundletool's `BundleConfig.pb`.
    static func bundleConfig(_ config: AndroidArtifact.BundleConfig) throws -> [UInt8] {
        var message = Shipcheck_Android_BundleConfig()
        if let version = config.bundletoolVersion { message.bundletool.version = version }
        message.optimizations.uncompressNativeLibraries.enabled = config.uncompressNativeLibraries
        switch config.nativeLibraryAlignment {
        case 4096?: message.optimizations.uncompressNativeLibraries.alignment = .pageAlignment4K
        case 16384?: message.optimizations.uncompressNativeLibraries.alignment = .pageAlignment16K
        case 65536?: message.optimizations.uncompressNativeLibraries.alignment = .pageAlignment64K
        default: message.optimizations.uncompressNativeLibraries.alignment = .unspecified
        }
        return try message.serializedBytes()
    }

    /// A library's bytes: its ELF file, or (an example's `unread`) bytes no ELF reader takes.
    private static func libraryBytes(_ facts: ELFLoadFacts?) -> [UInt8] {
        facts.map(ELFLibraryWriter.bytes) ?? Array("not an ELF file".utf8)
    }

    /// A listed file that is neither a manifest, the bundle configuration, nor a library.
    private static func otherFiles(_ artifact: AndroidArtifact) -> [String] {
        let known = Set(
            artifact.manifests.map(\.path) + artifact.libraries.map(\.path) + [artifact.bundleConfig?.path ?? ""])
        return artifact.files.filter { !known.contains($0) }
    }

    private static func filler(_ path: String) -> [UInt8] { Array("contents of \(path)\n".utf8) }

    /// The APK of a set a path lies in (`splits/base-master.apk`).
    private static func apkPath(_ path: String) -> String? {
        guard let range = path.range(of: ".apk/") else { return nil }
        return String(path[..<range.lowerBound]) + ".apk"
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String { String(dropFirst(prefix.count)) }
}
