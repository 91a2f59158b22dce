import ShipcheckCore

/// A rule over a scan's project model: a problem of the projects themselves (a Development
/// Assets folder that is not there), found once per scan.
package protocol ProjectRule: Rule {
    /// The rule's findings, at its default severity; `root` is the scanned root as given.
    static func check(_ model: ProjectModel, root: String) -> [Finding]
}

extension RuleInput {
    package static let project = RuleInput("project model")
}

extension ProjectRule {
    package static var inputs: Set<RuleInput> { [.project] }
}
