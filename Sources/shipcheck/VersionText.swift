import BinaryInspect
import ShipcheckCore

/// What `shipcheck --version` prints: the version, the git revision it was built from and
/// whether ELF support was built, e.g. `0.1.0 (revision 1a2b3c4d5e6f, ELF support: yes)`.
enum VersionText {
    static let text =
        "\(Report.toolVersion) (revision \(BuildInfo.gitRevision), ELF support: \(ELFSupport.isBuilt ? "yes" : "no"))"
}
