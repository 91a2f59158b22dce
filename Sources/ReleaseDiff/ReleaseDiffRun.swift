import ScanEngine
import ShipcheckCore

/// `shipcheck diff OLD NEW`: both releases read at once (each once, every single-artifact rule
/// run in the read), compared, judged by the previous-release rules, and their findings matched.
package struct ReleaseDiffRun: Sendable {
    let reader: ReleaseReader
    let check: PreviousReleaseCheck
    let configuration: Configuration

    package init(reader: ReleaseReader, check: PreviousReleaseCheck, configuration: Configuration) {
        self.reader = reader
        self.check = check
        self.configuration = configuration
    }

    /// What the run found: the comparison (nil when a side could not be read, or the two are
    /// of different families), the previous-release rules' findings, the new release's findings
    /// the previous one did not have (re-judged) and those that went away, and the errors.
    package struct Outcome: Sendable {
        package var comparison: ReleaseComparison?
        package var previousReleaseFindings: [Finding] = []
        package var appeared: [Finding] = []
        package var gone: [Finding] = []
        /// Every finding of the new release, re-judged against the previous one.
        package var newFindings: [Finding] = []
        package var inputErrors: [InputError] = []
    }

    package func run(old: String, new: String) -> Outcome {
        let sides = [old, new].parallelMap { reader.read($0) }
        var outcome = Outcome()
        outcome.inputErrors = sides.flatMap(\.result.inputErrors)
        guard let before = sides[0].facts, let after = sides[1].facts else { return outcome }
        guard before.family == after.family else {
            outcome.inputErrors.append(
                InputError(
                    path: new,
                    message:
                        "is an \(after.family.rawValue) artifact (\(after.kind)) and \(old) an \(before.family.rawValue) one (\(before.kind)): releases compare only within one platform"
                ))
            return outcome
        }
        let comparison = ReleaseComparison(old: before, new: after)
        outcome.comparison = comparison
        let newFindings = sides[1].result.finalized(configuration: configuration).findings
        // The same build given twice: nothing changed, and nothing to judge.
        guard !comparison.isIdentical else {
            outcome.newFindings = newFindings
            return outcome
        }
        outcome.previousReleaseFindings = check.check(comparison)
        outcome.newFindings = PreviousReleaseCheck.rejudged(newFindings, previous: before)
        // Notes are facts of each build (its build ID, its compiler), not findings that come and go.
        let oldFindings = sides[0].result.finalized(configuration: configuration).findings.filter {
            $0.severity > .note
        }
        (outcome.appeared, outcome.gone) = FindingMatch.changes(
            old: oldFindings, oldRoot: before.root, new: outcome.newFindings.filter { $0.severity > .note },
            newRoot: after.root)
        return outcome
    }
}
