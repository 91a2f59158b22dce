/// A check's part in a scan's read pass (`ReadPass`): it says which files it wants and sees
/// each one's bytes once. A check keeps what it collects per file itself (checks are classes,
/// one instance per run; the read pass calls them from several threads at once); what it makes
/// of that at the end is the core's business (`FileCheck`).
///
/// No file's bytes outlive its turn. A check that answers questions across files keeps per
/// file what it needs (facts: declarations, an `IdentifierFilter` of the names it mentions) and
/// answers them in `finish`; a file whose facts say it may need a look it did not get (it may
/// name a declaration only the end of the scan knows about) it opens again then, through
/// `ScanContext.reopen`.
package protocol ReadPassCheck: AnyObject, Sendable {
    /// Files to read before every other one, so `prepare` can use them (project files).
    func needsEarly(_ file: ScannedFile) -> Bool

    /// Once, after the listing and the early files: set up, and name files to read besides the
    /// listing (a path given on the command line that git does not list).
    func prepare(_ context: ScanContext) -> [ScannedFile]

    /// Whether the read pass should hand this check the file.
    func wants(_ file: ScannedFile) -> Bool

    /// The read pass, once per wanted file.
    func inspect(_ contents: FileContents)

    /// For a wanted file an earlier run read and that has not changed since: whether the check
    /// took its result for it from the result store, by the file's content hash, so it need not
    /// see the bytes. When it returns false the file is read and `inspect` called as for any
    /// other file; a check that keeps no results leaves the default.
    func inspectUnchanged(_ file: UnchangedFile) -> Bool

    /// Once per file of the scan (wanted or not, read or not), in listing order and one call
    /// at a time, after the file and every file before it went through the read pass: a check
    /// that streams what it finds (`query run`) writes it here, in a stable order, while later
    /// files are still being read.
    func fileCompleted(_ index: Int)
}

extension ReadPassCheck {
    package func needsEarly(_ file: ScannedFile) -> Bool { false }
    package func prepare(_ context: ScanContext) -> [ScannedFile] { [] }
    package func wants(_ file: ScannedFile) -> Bool { false }
    package func inspect(_ contents: FileContents) {}
    package func inspectUnchanged(_ file: UnchangedFile) -> Bool { false }
    package func fileCompleted(_ index: Int) {}
}
