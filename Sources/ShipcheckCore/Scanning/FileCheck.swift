import ScanEngine

/// One check of a scan (conflict markers, saved queries, previews, build settings…): its part
/// in the engine's read pass (`ReadPassCheck`: which files it wants, what it sees in each),
/// and the findings it makes of that once every file was seen.
package protocol FileCheck: ReadPassCheck {
    /// Its row in the audit's summary table.
    var name: String { get }

    /// The check's findings, once every file was seen.
    func finish() -> CheckResult
}
