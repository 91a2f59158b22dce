import ShipcheckCore
import SwiftSyntax

/// A rule that reads one parsed Swift file: it owns its description (with the examples that
/// are its tests), the bytes a file must contain before it can say anything, and its check.
/// The analyzer applies severity, suppressions and cross-file facts to what `check` proposes.
/// File rules catch run-time bugs of release builds, so test code (`TestCode`), which no
/// release build compiles, is left alone.
protocol SourceFileRule: Sendable {
    static var description: RuleDescription { get }
    /// Whether the file's bytes can hold a finding at all: the prefilter that keeps the parser
    /// away from files the rule has nothing to say about.
    static func mayTrigger(_ bytes: UnsafeRawBufferPointer) -> Bool
    static func check(_ file: ParsedSwiftFile) -> [RuleHit]
}

/// What a file rule reads.
struct ParsedSwiftFile {
    var path: String
    var bytes: [UInt8]
    var tree: SourceFileSyntax
    var lines: LineTable
}

/// A finding a file rule proposes, before severity and suppressions apply.
struct RuleHit {
    /// Where the finding points.
    var anchor: TokenSyntax
    /// The statement or declaration whose leading comment block may suppress it.
    var scope: Syntax
    var message: String
    /// Line-independent: the type and member names the hit is about.
    var identity: String
    var fixHint: String
    /// A fact about the whole scan the hit depends on (for example "Model is a class"); the
    /// hit is reported only when the scan's `SwiftTypeFacts` establish it.
    var requirement: TypeFactRequirement?
    /// The mechanical rewrite `--fix` makes for it, if there is one.
    var move: ConstructionMove?
}

/// The bytes a file must contain before a rule can apply: every group must have at least one
/// of its needles. Searched with memmem on the whole buffer, like the preview prefilter.
struct BytePrefilter: Sendable {
    private let groups: [[[UInt8]]]

    init(_ groups: [[String]]) {
        self.groups = groups.map { $0.map { Array($0.utf8) } }
    }

    func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        groups.allSatisfy { group in
            group.contains { needle in needle.withUnsafeBytes { ByteSearch.find($0, in: bytes) != nil } }
        }
    }
}

/// A finding that waits on a fact about the whole scan (see `SwiftTypeFacts`).
struct PendingFinding: Sendable {
    var finding: Finding
    var requirement: TypeFactRequirement
}

/// What the file rules report on one file.
struct FileRuleResults {
    var findings: [Finding] = []
    var pending: [PendingFinding] = []
    /// `--fix` rewrites, keyed by the identity of the finding each one fixes.
    var moves: [(identity: String, move: ConstructionMove)] = []

    /// Runs every enabled file rule whose prefilter the bytes pass, applying severities and
    /// suppressions the way the preview rules do. Code no release build compiles (`#if DEBUG`)
    /// cannot fail in a release, so hits there are dropped.
    init(file: ParsedSwiftFile, severities: [String: Severity], evaluator: ReleaseConditionEvaluator,
         suppressions: Suppressions, describer: FindingDescriber) {
        for rule in SourceScanRules.fileRules {
            let description = rule.description
            guard let severity = severities[description.id], file.bytes.withUnsafeBytes({ rule.mayTrigger($0) }),
                  !TestCode.contains(file) else { continue }
            for hit in rule.check(file) where evaluator.verdict(for: hit.anchor) != .excluded {
                let decision = suppressions.decision(rule: description.id, line: describer.line(of: hit.anchor),
                                                     leadingLines: describer.leadingLines(of: hit.scope))
                if decision == .suppressed { continue }
                var finding = describer.finding(rule: description, severity: severity, anchor: hit.anchor, message: hit.message, identity: hit.identity)
                finding.fixHint = hit.fixHint
                if decision == .missingReason { finding.message += Suppressions.missingReasonNote }
                if let requirement = hit.requirement {
                    pending.append(PendingFinding(finding: finding, requirement: requirement))
                } else {
                    findings.append(finding)
                }
                if let move = hit.move { moves.append((hit.identity, move)) }
            }
        }
    }
}

/// Test code, which no release build compiles: a file under a test target's folder (a path
/// component `Tests`, or ending in `Tests` as in `AppTests` / `AppUITests`, SwiftPM's and
/// Xcode's conventions) or one that imports XCTest or Testing.
enum TestCode {
    static func isTestPath(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { $0.hasSuffix("Tests") }
    }

    static func contains(_ file: ParsedSwiftFile) -> Bool {
        contains(path: file.path, tree: file.tree)
    }

    static func contains(path: String, tree: SourceFileSyntax) -> Bool {
        isTestPath(path) || tree.statements.contains { item in
            guard let importDecl = item.item.as(ImportDeclSyntax.self), let module = importDecl.path.first?.name.text else { return false }
            return module == "XCTest" || module == "Testing"
        }
    }
}
