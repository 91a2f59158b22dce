import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// The artifacts of a platform family whose reader lives outside this module (Android's APKs,
/// App Bundles, AARs and library folders): `BinaryInspector` asks each family about every
/// operand and every file of a directory walk first, and hands what a family claims to it whole,
/// so one `shipcheck binary` or `audit` run covers Apple, Android and plain binaries alike.
package protocol ArtifactFamily: Sendable {
    /// Whether a file or folder given as an operand is one of the family's artifacts.
    func claims(_ path: String, kind: FileKind) -> Bool
    /// For a file listed in a directory walk (`relativePath` inside the walked folder, `path`
    /// as it can be opened), the root of the family's artifact holding it (relative like the
    /// file: the file itself, or a folder above it); nil when none does.
    func artifactRoot(holding relativePath: String, at path: String) -> String?
    /// Reads and checks one artifact; the leak rules run on its binaries through `inspector`.
    func inspect(_ path: String, with inspector: BinaryInspector) -> CheckResult
    /// A binary no family claims by its path, mapped once by the inspector: the family's check
    /// of it when its bytes make it one of the family's artifacts (a `.so` linked for Android
    /// outside any ABI folder); nil when they do not, and the inspector audits the same bytes
    /// as a plain binary.
    func inspect(mapped bytes: FileBytes, at path: String, with inspector: BinaryInspector) -> CheckResult?
}
