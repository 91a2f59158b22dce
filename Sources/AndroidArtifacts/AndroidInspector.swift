import BinaryInspect
import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore

/// Android release artifacts as one family of `BinaryInspector`'s inputs: `.apk`, `.aab`,
/// `.apks` and `.aar` files, `.so` files of an ABI folder (or linked for Android), and folders of
/// ABI folders (`src/main/jniLibs`, an AAR's `jni`): each read by `AndroidWalker`, with the leak
/// rules on every library and the Android rules on the whole.
package struct AndroidInspector: ArtifactFamily {
    /// The Android rules the configuration leaves on.
    private let rules: [any AndroidRule.Type]
    private let configuration: Configuration

    /// `rules`: the registry's rules; the inspector runs the Android rules among them.
    package init(configuration: Configuration, rules: [any Rule.Type]) {
        self.configuration = configuration
        self.rules = rules.reading(.android, as: (any AndroidRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
    }

    /// The rules among `rules` the inspector runs (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.inputs.contains(.android) }
    }

    package func claims(_ path: String, kind: FileKind) -> Bool {
        switch kind {
        case .regular:
            if AndroidArtifactKind(path: path) != nil { return true }
            return path.hasSuffix(".so") && Self.isInABIFolder(path)
        case .directory:
            return Self.isLibraryFolder(path)
        default:
            return false
        }
    }

    /// An artifact file is its own root; a library in an ABI folder inside the walk belongs to
    /// the folder of ABI folders above it. A library whose ABI folder is the walked folder itself
    /// (or above it) is judged on its own, as when it is named; one outside any ABI folder is the
    /// inspector's to map, and ours if its bytes say Android (`inspect(mapped:at:with:)`).
    package func artifactRoot(holding relativePath: String, at path: String) -> String? {
        if AndroidArtifactKind(path: relativePath) != nil { return relativePath }
        guard relativePath.hasSuffix(".so") else { return nil }
        if Self.isInABIFolder(relativePath) {
            let folder = relativePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
            return folder.isEmpty ? "." : folder.joined(separator: "/")
        }
        return Self.isInABIFolder(path) ? relativePath : nil
    }

    /// A `.so` outside any ABI folder, mapped once by the caller: read and checked as a named
    /// library is when it is linked for Android (`isLinkedForAndroid`); nil otherwise, for the
    /// caller to audit the same bytes as a plain binary.
    package func read(mapped bytes: FileBytes, at path: String, with inspector: BinaryInspector) -> (
        artifact: AndroidArtifact, result: CheckResult
    )? {
        guard path.hasSuffix(".so"), Self.isLinkedForAndroid(bytes, at: path) else { return nil }
        var (artifact, result) = AndroidWalker(inspector: inspector).readLibrary(mapped: bytes, at: path)
        result.findings += check(artifact)
        return (artifact, result)
    }

    package func inspect(mapped bytes: FileBytes, at path: String, with inspector: BinaryInspector) -> CheckResult? {
        read(mapped: bytes, at: path, with: inspector)?.result
    }

    package func inspect(_ path: String, with inspector: BinaryInspector) -> CheckResult {
        inspect(path, with: inspector, uploadDay: nil)
    }

    /// `uploadDay` (`yyyy-MM-dd`): the day Play's dated floors are judged as of, when not today
    /// (a rule example states the day its outcome holds on).
    package func inspect(_ path: String, with inspector: BinaryInspector, uploadDay: String?) -> CheckResult {
        read(path, with: inspector, uploadDay: uploadDay).result
    }

    /// Reads the artifact at `path` and runs every rule on it, as `inspect` does, handing back
    /// the model it checked (nil when it could not be read at all).
    package func read(_ path: String, with inspector: BinaryInspector, uploadDay: String? = nil) -> (
        artifact: AndroidArtifact?, result: CheckResult
    ) {
        let kind =
            AndroidArtifactKind(path: path) ?? (FileKind.of(path) == .directory ? .libraryFolder : .library)
        var (artifact, result) = AndroidWalker(inspector: inspector).read(path: path, kind: kind)
        if var read = artifact {
            if let uploadDay { read.uploadDay = uploadDay }
            result.findings += check(read)
            artifact = read
        }
        return (artifact, result)
    }

    /// A library of a folder of ABI folders (`jniLibs`) whose bytes the caller holds (the audit's
    /// read pass hands each over once, so nothing opens it again): read as `read` reads the
    /// folder's libraries, leak rules included. `path`: its place in the folder
    /// (`arm64-v8a/libapp.so`); nil when that is not a library of a folder.
    package func readFolderLibrary(
        _ bytes: FileBytes, at path: String, in folder: String, with inspector: BinaryInspector
    )
        -> FolderLibrary?
    {
        AndroidWalker(inspector: inspector).readFolderLibrary(bytes, at: path, root: folder)
    }

    /// The folder of ABI folders at `folder` made of its libraries read one by one
    /// (`readFolderLibrary`), checked as `inspect` checks a folder it reads itself.
    package func checkFolder(_ folder: String, libraries: [FolderLibrary], with inspector: BinaryInspector)
        -> CheckResult
    {
        var (artifact, result) = AndroidWalker(inspector: inspector).folder(at: folder, libraries: libraries)
        result.findings += check(artifact)
        return result
    }

    /// Runs the Android rules on an artifact already read (rule examples, tests, the fuzz target),
    /// at their default severities (the configuration's are applied to every check's findings in
    /// one place).
    package func check(_ artifact: AndroidArtifact) -> [Finding] {
        rules.flatMap { rule in
            rule.check(
                artifact, AndroidRuleContext(severity: rule.description.defaultSeverity, configuration: configuration))
        }
    }

    /// `…/arm64-v8a/libapp.so`: a library in a folder named for an Android ABI.
    static func isInABIFolder(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        return components.count >= 2 && AndroidABI(folder: components[components.count - 2]) != nil
    }

    /// A folder holding ABI folders (`jniLibs`, `jni`, a merged `lib`).
    static func isLibraryFolder(_ path: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return !names.isEmpty && names.contains { AndroidABI(folder: $0) != nil }
            && names.allSatisfy { AndroidABI(folder: $0) != nil || $0.hasPrefix(".") }
    }

    /// A library linked for Android: it carries the NDK's ABI note (`.note.android.ident`), or
    /// names bionic or another Android system library the way only Android does (older NDKs
    /// and other toolchains write no note).
    static func isLinkedForAndroid(_ bytes: FileBytes, at path: String) -> Bool {
        guard let facts = try? ELFSupport.loadFacts(of: bytes, origin: ImageOrigin(path: path)) else { return false }
        return facts.androidAPILevel != nil || NDKSystemLibraries.namesAnAndroidLibrary(facts.needed)
    }
}
