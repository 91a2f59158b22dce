import BinaryInspect
import ConflictScan
import ReleaseDiff
import SavedQueries
import ShipcheckCore

/// Every capability's own settings type, in one list: what `.shipcheck.yml` may set beside the
/// shared keys and the rules (`ConfigurationLoader` reads each type's place in the file). A new
/// settings type is one file in its capability plus one line here.
package enum SettingsRegistry {
    package static let settings: [any CapabilitySettings.Type] = [
        // The release artifacts `audit` inspects (BinaryInspect).
        ArtifactSettings.self,
        // The repository's saved-query store (SavedQueries).
        QuerySettings.self,
        // Files that show conflict markers on purpose (ConflictScan).
        ConflictSettings.self,
        // How Apple bundles and .ipa files ship (BinaryInspect).
        BundleSettings.self,
        // The previous release the artifacts are judged against (ReleaseDiff).
        PreviousReleaseSettings.self
    ]
}
