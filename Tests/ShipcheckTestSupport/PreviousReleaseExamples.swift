import ScanEngine
import ShipcheckCore

/// What the byte-level tests of the previous-release rules' examples (one per platform: the
/// Android writers in AndroidArtifactsTests, the Apple writer in BinaryInspectTests) check
/// besides the markers, in one place.
package enum PreviousReleaseExamples {
    /// The problems of one example's diff: input errors (an example the readers cannot read tests
    /// nothing), and findings of `rule` whose message does not name the previous release's file
    /// (written as `Previous.<kind>`).
    package static func problems(
        findings: [Finding], inputErrors: [InputError], rule: String, in text: String
    ) -> [String] {
        var problems: [String] = []
        if !inputErrors.isEmpty {
            problems.append("\(rule): input errors \(inputErrors.map(\.description)) in:\n\(text)")
        }
        for finding in findings where finding.ruleID == rule && !finding.message.contains("Previous.") {
            problems.append("\(rule): the message does not name the previous release: \(finding.message)")
        }
        return problems
    }

    /// Whether the rule has a triggering example of `family` (`apple`, `android`) that a writer can
    /// write: one that states no sizes (a written file has its own).
    package static func hasWritable(_ rule: RuleDescription, family: String) -> Bool {
        rule.triggeringExamples.contains { $0.text.hasPrefix(family + "\n") && !$0.text.contains("\nsize ") }
    }
}
