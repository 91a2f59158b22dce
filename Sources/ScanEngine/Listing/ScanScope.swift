/// What a scan lists and reads: the paths its include / exclude globs leave in, and the size
/// past which a file is reported instead of read.
package struct ScanScope: Sendable {
    /// Paths to scan (empty: everything); `!pattern` re-excludes.
    package var include: GlobList
    /// Paths never scanned by any check.
    package var exclude: GlobList
    /// Per-file size cap for text scanning, in bytes.
    package var maxFileSize: Int

    package init(
        include: GlobList = GlobList([]), exclude: GlobList = GlobList([]),
        maxFileSize: Int = SafeFileReader.defaultSizeLimit
    ) {
        self.include = include
        self.exclude = exclude
        self.maxFileSize = maxFileSize
    }

    /// Whether a path (relative to the root) is in the scanned set.
    package func isScanned(_ path: String) -> Bool {
        (include.isEmpty || include.matches(path)) && !exclude.matches(path)
    }
}
