import AndroidArtifacts
import BinaryInspect
import BinaryReaderCore
import ScanEngine
import ShipcheckCore
import Synchronization

/// The prebuilt Android libraries a repository keeps for Gradle to package
/// (`app/src/main/jniLibs/<abi>/*.so`), found in the audit's listing and checked as library
/// folders when the scan ends — so a 4 KB-aligned or 32-bit-only vendor library fails the gate
/// before it is ever packaged. Each library is read from the bytes the read pass hands over
/// (the loader's view and the leak rules), so it is opened once, whichever other checks read it;
/// the Android rules judge each folder at the end.
final class AndroidLibrariesCheck: FileCheck {
    let name = "android libraries"
    private let root: String
    private let android: AndroidInspector
    private let inspector: BinaryInspector
    /// The libraries read, by their `jniLibs` folder relative to the root.
    private let folders = Mutex<[String: [FolderLibrary]]>([:])

    init(root: String, configuration: Configuration) {
        self.root = root
        android = AndroidInspector(configuration: configuration, rules: RuleRegistry.rules)
        inspector = Frontend.artifactInspector(configuration: configuration, architecture: nil)
    }

    func wants(_ file: ScannedFile) -> Bool {
        Self.place(of: file.relativePath) != nil
    }

    func inspect(_ contents: FileContents) {
        guard let (folder, path) = Self.place(of: contents.file.relativePath) else { return }
        let bytes = FileBytes(copying: contents.withBytes { $0.array() })
        guard let library = android.readFolderLibrary(bytes, at: path, in: opened(folder), with: inspector) else {
            return
        }
        folders.withLock { $0[folder, default: []].append(library) }
    }

    func finish() -> CheckResult {
        var result = CheckResult()
        for (folder, libraries) in folders.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            result.merge(android.checkFolder(opened(folder), libraries: libraries, with: inspector))
        }
        for index in result.findings.indices {
            result.findings[index].location = result.findings[index].location.relative(to: root)
        }
        return result
    }

    /// A library in an ABI folder of a `jniLibs` folder: the `jniLibs` folder and the library's
    /// place in it (`arm64-v8a/libapp.so`). Every listed file comes through here: the suffix
    /// first, the path's parts only for libraries.
    private static func place(of relativePath: String) -> (folder: String, path: String)? {
        guard relativePath.hasSuffix(".so") else { return nil }
        let components = relativePath.split(separator: "/")
        guard components.count >= 3, components[components.count - 3] == "jniLibs",
            AndroidABI(folder: components[components.count - 2]) != nil
        else { return nil }
        return (components.dropLast(2).joined(separator: "/"), components.suffix(2).joined(separator: "/"))
    }

    /// The folder as the readers name it: under the root.
    private func opened(_ folder: String) -> String { root == "." ? folder : "\(root)/\(folder)" }
}
