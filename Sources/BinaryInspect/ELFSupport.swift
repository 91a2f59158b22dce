/// Whether this build reads ELF files (libelf was found when it was built); `--version` says so.
public enum ELFSupport {
    public static let isBuilt = true
}
