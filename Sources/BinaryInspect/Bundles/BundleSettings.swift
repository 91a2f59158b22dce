import ScanEngine
import ShipcheckCore

/// How Apple bundles and .ipa files are meant to ship: `bundle:` in `.shipcheck.yml`. Read by
/// the bundle walk (`BundleContents.distribution`) and the project's privacy check.
package struct BundleSettings: CapabilitySettings {
    package static let section: String? = "bundle"
    package static let keys = ["distribution"]

    /// nil: from an ExportOptions.plist beside an .ipa, else the App Store.
    package var distribution: DistributionMethod? = nil

    package init() {}

    package mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        guard let method = DistributionMethod(exportMethod: try mapping.string(key) ?? "") else {
            let names = DistributionMethod.exportMethodNames.joined(separator: ", ")
            throw InputError(
                path: mapping.file, line: mapping.line(of: key),
                message: "'\(mapping.context).\(key)' must be one of \(names)")
        }
        distribution = method
    }
}
