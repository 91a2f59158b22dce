import ScanEngine
import ShipcheckCore

/// Where the repository's saved queries live: `queries:` in `.shipcheck.yml`.
package struct QuerySettings: CapabilitySettings {
    package static let section: String? = nil
    package static let keys = ["queries"]
    package static let defaultFile = ".shipcheck/queries.yml"

    /// The repository's saved-query store, relative to the root unless absolute.
    package var file = QuerySettings.defaultFile

    package init() {}

    package mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        file = try mapping.string(key) ?? file
    }
}
