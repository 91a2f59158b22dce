import BinaryInspect
import Foundation
import ShipcheckCore

/// What the Android rules look at in one artifact, already read: its manifests (one per module
/// or per APK of a set), every native library with the facts its ELF headers state and how the
/// zip stores it, and an App Bundle's `BundleConfig.pb`. Like the Apple bundle model, it has a
/// small text form the rule examples use (AndroidArtifact+Example.swift).
package struct AndroidArtifact: Sendable {
    /// How findings name the artifact (`app/build/outputs/bundle/release/app-release.aab`).
    package var root: String
    package var kind: AndroidArtifactKind
    /// Every regular file, by its path inside the artifact.
    package var files: [String] = []
    /// The sizes of every file of `files`, by path (an APK set's APKs and, under their paths,
    /// their entries alike); a library given on its own is one entry, "".
    package var entrySizes: [String: EntrySize] = [:]
    package var manifests: [ModuleManifest] = []
    package var libraries: [NativeLibrary] = []
    package var bundleConfig: BundleConfig?
    /// The day (`yyyy-MM-dd`, UTC) the artifact would be uploaded: Play's dated floors are
    /// judged as of it.
    package var uploadDay = BundleContents.today()

    package init(root: String, kind: AndroidArtifactKind) {
        self.root = root
        self.kind = kind
    }

    /// A module's manifest (`base`, a feature module, an APK of a set; "" in an APK or AAR).
    package struct ModuleManifest: Sendable, Hashable {
        package var path: String
        package var module: String
        package var manifest: AndroidManifest

        package init(path: String, module: String, manifest: AndroidManifest) {
            self.path = path
            self.module = module
            self.manifest = manifest
        }
    }

    /// `BundleConfig.pb`: how bundletool (and Google Play) will package the bundle's libraries.
    package struct BundleConfig: Sendable, Hashable {
        package var path = "BundleConfig.pb"
        package var bundletoolVersion: String?
        /// `optimizations.uncompress_native_libraries.enabled`.
        package var uncompressNativeLibraries = false
        /// Its alignment in bytes (nil: unspecified, which bundletool takes as 4 KB).
        package var nativeLibraryAlignment: Int?

        package init() {}
    }

    /// The application manifest that says how the whole app is built: the base module's, an
    /// APK's own, the base APK's of a set (the one that is no split).
    package var mainManifest: ModuleManifest? {
        manifests.first { $0.module == "base" } ?? manifests.first { $0.manifest.split == nil }
    }

    /// Whether the artifact is an app Google Play takes (an AAR, a loose library or a library
    /// folder is not uploaded on its own).
    package var isUploaded: Bool { kind.isApp }

    /// Whether libraries are loaded in place from the APK, uncompressed: then they must start at
    /// a page boundary inside it.
    package var loadsLibrariesFromAPK: Bool { mainManifest?.manifest.extractNativeLibs == false }

    /// A finding about a file inside the artifact (`inner` empty: the artifact itself).
    package func finding(
        _ rule: RuleDescription, _ severity: Severity, at inner: String, message: String, fix: String, identity: String
    ) -> Finding {
        Finding(about: inner, in: root, rule, severity, message: message, fix: fix, identity: identity)
    }

    /// How messages name an entry: its path inside the artifact.
    package func shown(_ inner: String) -> String {
        inner.isEmpty ? (root.split(separator: "/").last.map(String.init) ?? root) : inner
    }
}

/// One native library of the artifact, with what its zip entry and its ELF headers say.
package struct NativeLibrary: Sendable, Hashable {
    /// Its path inside the artifact (`lib/arm64-v8a/libapp.so`, `base/lib/x86/libapp.so`).
    package var path: String
    /// The module or APK it belongs to ("" in an APK, an AAR or a folder).
    package var module: String
    /// The ABI its folder names (nil: a library outside an ABI folder).
    package var abi: AndroidABI?
    /// How the zip holds it (nil: a file on disk).
    package var storage: Storage?
    /// What its ELF headers say (nil: it could not be read; the error is the walker's).
    package var elf: ELFLoadFacts?

    package init(path: String, module: String = "", abi: AndroidABI?, storage: Storage? = nil, elf: ELFLoadFacts?) {
        self.path = path
        self.module = module
        self.abi = abi
        self.storage = storage
        self.elf = elf
    }

    package enum Storage: Sendable, Hashable {
        /// Stored without compression, its data starting at this offset of the zip.
        case stored(dataOffset: UInt64)
        case deflated
    }

    /// Its file name (what `DT_NEEDED` names).
    package var name: String { String(path.split(separator: "/").last ?? "") }

    /// The ABI folder holding it (`lib/arm64-v8a`).
    package var folder: String { path.split(separator: "/").dropLast().joined(separator: "/") }
}

/// The Android artifacts shipcheck reads, known by their extension or their folder.
package enum AndroidArtifactKind: String, Sendable, CaseIterable {
    case apk, aab, aar, apks
    /// One `.so` given on its own.
    case library
    /// A folder of ABI folders of libraries (`src/main/jniLibs`), before they are packaged.
    case libraryFolder = "jniLibs"

    /// The kind a file's extension names.
    package init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "apk": self = .apk
        case "aab": self = .aab
        case "aar": self = .aar
        case "apks": self = .apks
        default: return nil
        }
    }

    /// An app Google Play takes: what its upload rules apply to.
    package var isApp: Bool { self == .apk || self == .aab || self == .apks }

    /// Zips, read entry by entry without extracting them.
    package var isZip: Bool { self != .library && self != .libraryFolder }
}

/// A library of a folder of ABI folders read on its own (`AndroidInspector.readFolderLibrary`),
/// waiting for the rest of its folder.
package struct FolderLibrary: Sendable {
    var library: NativeLibrary
    /// What reading it found: the leak rules' findings, its errors.
    var result: CheckResult
    var size: UInt64
}
