import ScanEngine
import ShipcheckCore

/// A rule over the conflict blocks and remnants found in one file's content.
protocol ConflictContentRule: Rule {
    /// The rule's findings in the content, at its default severity (`ConflictRules` applies the
    /// file's suppressions).
    static func findings(in content: ContentConflicts, path: String) -> [Finding]
}

/// A rule over the repository's conflict state (index and git directory), once per scan.
protocol RepositoryConflictRule: Rule {
    static func findings(in state: RepositoryConflicts) -> [Finding]
}

/// What the index and the git directory say about conflicts.
struct RepositoryConflicts {
    /// Paths at conflict stages 1–3 and which stages each has.
    var unmerged: [String: Set<Int>] = [:]
    /// Paths whose markers were reported as a conflict block already.
    var pathsWithBlocks: Set<String> = []
    /// The merge-like operation git has stopped in.
    var operation: GitOperation?
}

/// The conflict rules a scan runs (those the configuration leaves on), and how their findings
/// come together: content first, then the repository state, and a note for every marker a
/// deprecated `shipcheck:ignore` form silenced.
struct ConflictRules: Sendable {
    let content: [any ConflictContentRule.Type]
    let repository: [any RepositoryConflictRule.Type]

    init(_ rules: [any Rule.Type], configuration: Configuration) {
        content = rules.reading(.conflictContent, as: (any ConflictContentRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
        repository = rules.reading(.repositoryConflict, as: (any RepositoryConflictRule.Type).self).filter {
            configuration.isEnabled($0.description)
        }
    }

    func findings(in content: ContentConflicts, path: String) -> (findings: [Finding], notes: [InputError]) {
        var findings: [Finding] = []
        var notes: [InputError] = []
        for rule in self.content {
            for finding in rule.findings(in: content, path: path) {
                switch content.suppressions?.outcome(of: finding, rule: rule) ?? .reported(finding) {
                case .reported(let finding):
                    findings.append(finding)
                case .suppressed:
                    break
                case .suppressedByDeprecatedForm(let line):
                    if !notes.contains(where: { $0.line == line }) {
                        notes.append(InputError(path: path, line: line, message: Self.deprecationNote))
                    }
                }
            }
        }
        return (findings, notes)
    }

    func findings(in state: RepositoryConflicts) -> [Finding] {
        repository.flatMap { $0.findings(in: state) }
    }

    static let deprecationNote =
        "this shipcheck:ignore still silences the conflict marker, but without a comment and a '-- reason' it is deprecated; write '# shipcheck:ignore conflict-marker -- why' in the file's comment syntax (see docs/suppressions.md)"
}

extension RuleInput {
    package static let conflictContent = RuleInput("conflict markers in a file")
    package static let repositoryConflict = RuleInput("conflicts in the repository")
}

extension ConflictContentRule {
    package static var inputs: Set<RuleInput> { [.conflictContent] }
}

extension RepositoryConflictRule {
    package static var inputs: Set<RuleInput> { [.repositoryConflict] }
}
