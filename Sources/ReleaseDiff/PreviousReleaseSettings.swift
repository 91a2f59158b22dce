import ScanEngine
import ShipcheckCore

/// `previous:` in `.shipcheck.yml`: the previous release's artifact (relative to the root), which
/// `audit` and `binary` judge the release artifact against, as `--previous` does (the option
/// wins). The size budgets are `rules.previous-size-budget`'s options.
package struct PreviousReleaseSettings: CapabilitySettings {
    package static let section: String? = nil
    package static let keys = ["previous"]

    package var previous: String?

    package init() {}

    package mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        previous = try mapping.string(key)
    }
}
