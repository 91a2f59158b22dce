import ScanEngine
import ShipcheckCore

/// The release artifacts `audit` inspects, and `binary` when given no paths: `binaries:` in
/// `.shipcheck.yml`, globs relative to the root (expanded by `ArtifactPaths`).
package struct ArtifactSettings: CapabilitySettings {
    package static let section: String? = nil
    package static let keys = ["binaries"]

    package var binaries: [String] = []

    package init() {}

    package mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        binaries = try mapping.stringList(key) ?? []
    }
}
