/// A check's part in a scan's read pass (`ReadPass`): it says which files it wants and sees
/// each one's bytes once. A check keeps what it collects per file itself (checks are classes,
/// one instance per run; the read pass calls them from several threads at once); what it makes
/// of that at the end is the core's business (`FileCheck`).
///
/// Cross-file checks get two rounds after the read pass, over the bytes of the files they ask
/// for again (kept in memory meanwhile): everything one check needs from a file in a round is
/// there when any check processes it, so what a file derives (its syntax tree) is computed
/// once. The archive-breaker check uses them: declarations in round one, references in round two.
package protocol ReadPassCheck: AnyObject, Sendable {
    /// Files to read before every other one, so `prepare` can use them (project files).
    func needsEarly(_ file: ScannedFile) -> Bool

    /// Once, after the listing and the early files: set up, and name files to read besides the
    /// listing (a path given on the command line that git does not list).
    func prepare(_ context: ScanContext) -> [ScannedFile]

    /// Whether the read pass should hand this check the file.
    func wants(_ file: ScannedFile) -> Bool

    /// The read pass, once per wanted file; says whether the check needs the file again.
    func inspect(_ contents: FileContents) -> FollowUp

    /// Once per file of the scan (wanted or not, read or not), in listing order and one call
    /// at a time, after the file and every file before it went through the read pass: a check
    /// that streams what it finds (`query run`) writes it here, in a stable order, while later
    /// files are still being read.
    func fileCompleted(_ index: Int)

    /// After the first round, before the second.
    func beginSecondRound()

    /// For a file inspected with `.secondRoundIfWanted`: whether it is needed after all, asked
    /// once the first round is over, with the kept bytes.
    func wantsSecondRound(_ contents: FileContents) -> Bool

    /// A file asked for again, in the round it was scheduled in.
    func process(_ contents: FileContents, round: FileRound)
}

/// Whether a check needs a file again after the read pass, and when.
package enum FollowUp: Sendable, Comparable {
    case none
    /// In the second round, if `wantsSecondRound` says so.
    case secondRoundIfWanted
    /// In whichever round the file is processed.
    case eitherRound
    /// In the first round, before any file of the second.
    case firstRound
}

package enum FileRound: Sendable {
    case first, second
}

extension ReadPassCheck {
    package func needsEarly(_ file: ScannedFile) -> Bool { false }
    package func prepare(_ context: ScanContext) -> [ScannedFile] { [] }
    package func wants(_ file: ScannedFile) -> Bool { false }
    package func inspect(_ contents: FileContents) -> FollowUp { .none }
    package func fileCompleted(_ index: Int) {}
    package func beginSecondRound() {}
    package func wantsSecondRound(_ contents: FileContents) -> Bool { false }
    package func process(_ contents: FileContents, round: FileRound) {}
}
