import ShipcheckCore
import SwiftSyntax
import XcodeProject

/// A finding one of the run-time rules (`state-built-in-init`, `dynamic-property-captures-self`,
/// `unchecked-sendable-closure`) proposes, before `findings(of:in:context:)` turns it into a
/// `SourceFinding`.
struct ProposedFinding {
    /// Where the finding points.
    var anchor: TokenSyntax
    /// The statement or declaration whose leading comment block may suppress it.
    var scope: Syntax
    var message: String
    /// Line-independent: the type and member names the hit is about.
    var identity: String
    var fixHint: String
    /// A fact about the whole scan the hit depends on (for example "Model is a class"); the
    /// hit is reported only when the scan establishes it (`SwiftTypeFacts.confirmed`).
    var requirement: TypeFactRequirement?
    /// The mechanical rewrite `--fix` makes for it, if there is one.
    var move: ConstructionMove?

    /// The findings of `rule` for `hits` in `file`. These rules catch run-time bugs of release
    /// builds: test code (`TestCode`), previews (the preview rules see to those) and code no
    /// release build compiles (`#if DEBUG`) cannot fail there, so hits in them are dropped.
    static func findings(
        of rule: any SwiftSourceRule.Type, in file: ParsedSwiftFile, context: SwiftRuleContext,
        _ hits: (ParsedSwiftFile) -> [ProposedFinding]
    ) -> [SourceFinding] {
        guard context.testReason == nil, !TestCode.contains(file) else { return [] }
        let previews = file.previewRanges
        return hits(file).filter { hit in
            !previews.contains { $0.contains(hit.anchor.position.utf8Offset) }
                && context.evaluator.verdict(for: hit.anchor, memo: file.clauseMemo) != .excluded
        }.map { hit in
            var found = SourceFinding(
                finding: file.finding(
                    rule, at: hit.anchor, message: hit.message, identity: hit.identity, fixHint: hit.fixHint),
                leadingLines: file.leadingLines(of: hit.scope))
            found.requirement = hit.requirement
            found.move = hit.move
            return found
        }
    }
}

/// A finding that waits on a fact about the whole scan (see `SwiftTypeFacts`).
struct PendingFinding: Sendable, Codable {
    var finding: Finding
    var requirement: TypeFactRequirement
}

/// Test code, which no release build compiles, as far as one file tells: a file the path
/// conventions (`TestScope.conventionReason(for:)`) call test code, or one that imports
/// XCTest or Testing. (With the project model, `SwiftRuleContext.testReason` knows more.)
enum TestCode {
    static func isTestPath(_ path: String) -> Bool {
        TestScope.conventionReason(for: path) != nil
    }

    static func contains(_ file: ParsedSwiftFile) -> Bool {
        contains(path: file.path, tree: file.tree)
    }

    static func contains(path: String, tree: SourceFileSyntax) -> Bool {
        isTestPath(path)
            || tree.statements.contains { item in
                guard let importDecl = item.item.as(ImportDeclSyntax.self),
                    let module = importDecl.path.first?.name.text
                else { return false }
                return module == "XCTest" || module == "Testing"
            }
    }
}
