import AndroidArtifacts
import ScanEngine
import ShipcheckCore
import Synchronization

/// The prebuilt Android libraries a repository keeps for Gradle to package
/// (`app/src/main/jniLibs/<abi>/*.so`), found in the audit's listing and checked as library
/// folders when the scan ends — so a 4 KB-aligned or 32-bit-only vendor library fails the gate
/// before it is ever packaged. The read pass does not read them (their bytes are the Android
/// reader's): each is opened once, by it.
final class AndroidLibrariesCheck: FileCheck {
    let name = "android libraries"
    private let root: String
    private let configuration: Configuration
    /// The `jniLibs` folders seen in the listing, relative to the root.
    private let folders = Mutex<Set<String>>([])
    private let source: any FileSource

    init(root: String, configuration: Configuration, source: any FileSource) {
        self.root = root
        self.configuration = configuration
        self.source = source
    }

    func wants(_ file: ScannedFile) -> Bool {
        // Every listed file comes through here: the suffix first, the path's parts only for libraries.
        guard file.relativePath.hasSuffix(".so") else { return false }
        let components = file.relativePath.split(separator: "/")
        if components.count >= 3, components[components.count - 3] == "jniLibs",
            AndroidABI(folder: components[components.count - 2]) != nil
        {
            let folder = components.dropLast(2).joined(separator: "/")
            folders.withLock { _ = $0.insert(folder) }
        }
        return false
    }

    func finish() -> CheckResult {
        let found = folders.withLock { $0 }.sorted()
        guard !found.isEmpty else { return CheckResult() }
        let inspector = Frontend.artifactInspector(configuration: configuration, architecture: nil, source: source)
        var result = inspector.run(paths: found.map { root == "." ? $0 : "\(root)/\($0)" })
        for index in result.findings.indices {
            result.findings[index].location = result.findings[index].location.relative(to: root)
        }
        return result
    }
}
