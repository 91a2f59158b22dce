import ScanEngine
import ShipcheckCore

/// The conflict checks' settings: `conflicts:` in `.shipcheck.yml`.
package struct ConflictSettings: CapabilitySettings {
    package static let section: String? = "conflicts"
    package static let keys = ["allow"]

    /// Paths where conflict markers are expected (docs and fixtures that show them on purpose).
    package var allow = GlobList([])

    package init() {}

    package mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        allow = GlobList(try mapping.stringList(key) ?? [])
    }
}
