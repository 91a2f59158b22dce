import Foundation
import ScanEngine
import ShipcheckCore
import SwiftSyntax

/// A rule over one parsed Swift file (the `sources` check): its description and examples, the
/// text a file must contain for the rule to find anything in it, and the check itself. The
/// engine (`SourceRulesCheck`) parses a file only when some rule's prefilter lets it through,
/// parses it once for all rules, and applies suppressions and severities to what they return.
package protocol SwiftSourceRule: Rule {
    /// Texts one of which a file must contain for this rule to report anything in it: the
    /// byte prefilter (memmem on the whole file) that keeps the parser away from most files.
    static var requiredText: [String] { get }

    /// A closer look at the bytes of a file holding one of `requiredText`, still without
    /// parsing: whether the rule can report anything in it (by default, yes). The bytes are
    /// lent for the call (`FileContents.withBytes`).
    static func mayApply(to contents: FileContents) -> Bool

    /// What the rule reads of the tree: whole files, or only some top-level declarations
    /// (`PartialParse`); by default the whole file.
    static var parseScope: ParseScope { get }

    /// Whether every Swift file in Development Assets is checked, whatever its text.
    static var checksEveryDevelopmentAsset: Bool { get }

    /// Whether the rule is about what a release build compiles, so test code (never
    /// archived: `TestScope`) is out of its scope.
    static var concernsReleaseBuilds: Bool { get }

    /// Whether the rule reports in generated files (`GeneratedFiles`): the preview and
    /// Development Assets rules do (a generated preview ships all the same); the rules about
    /// hand-written code do not, unless the configuration's `check-generated` names them.
    static var reportsInGeneratedFiles: Bool { get }

    /// The rule's findings in one file, at the rule's default severity.
    static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding]
}

extension SwiftSourceRule {
    package static func mayApply(to contents: FileContents) -> Bool { true }
    package static var parseScope: ParseScope { .wholeFile }
    package static var checksEveryDevelopmentAsset: Bool { false }
    package static var concernsReleaseBuilds: Bool { false }
    package static var reportsInGeneratedFiles: Bool { true }
}

/// What a rule knows besides the file.
package struct SwiftRuleContext: Sendable {
    /// Which compilation conditions a release build sets (`DEBUG` never; the configuration's flags).
    package var evaluator: ReleaseConditionEvaluator
    /// Why the file is development-only (which setting or `development-paths` glob names it), or nil.
    package var developmentReason: String?
    /// Why the file is test code (`TestScope.reason(for:)`), or nil.
    package var testReason: String?

    package init(evaluator: ReleaseConditionEvaluator, developmentReason: String?, testReason: String? = nil) {
        self.evaluator = evaluator
        self.developmentReason = developmentReason
        self.testReason = testReason
    }
}

/// A finding in a Swift file, with where a suppression for it may sit.
package struct SourceFinding: Sendable {
    package var finding: Finding
    /// The lines from the first comment directly above the declaration the finding is about
    /// (no blank line between) down to its first line of code: a suppression anywhere in them
    /// counts. Nil: only the line above and the finding's own line.
    package var leadingLines: ClosedRange<Int>?
    /// The preview `sources --fix` wraps in `#if DEBUG` when the finding stands.
    var preview: DetectedPreview?
    /// A fact about the whole scan the finding depends on: it is reported only when the scan
    /// establishes it (`SwiftTypeFacts.confirmed`).
    var requirement: TypeFactRequirement?
    /// The construction `sources --fix` moves into `StateObject(wrappedValue:)` when the finding stands.
    var move: ConstructionMove?

    package init(finding: Finding, leadingLines: ClosedRange<Int>? = nil) {
        self.finding = finding
        self.leadingLines = leadingLines
    }

    init(finding: Finding, leadingLines: ClosedRange<Int>?, preview: DetectedPreview?) {
        self.finding = finding
        self.leadingLines = leadingLines
        self.preview = preview
    }
}

extension ParsedSwiftFile {
    /// A finding at `anchor` (for `#Preview`, the `#` and the name together), with the line of
    /// code it is on as its snippet.
    package func finding(
        _ rule: any Rule.Type, at anchor: TokenSyntax, message: String, identity: String, fixHint: String? = nil
    ) -> Finding {
        let start = lines.position(of: anchor.positionAfterSkippingLeadingTrivia.utf8Offset)
        var endToken = anchor
        if anchor.tokenKind == .pound, let next = anchor.nextToken(viewMode: .sourceAccurate) { endToken = next }
        let end = lines.position(of: endToken.endPositionBeforeTrailingTrivia.utf8Offset)
        let location = SourceLocation(
            path: path, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
        return Finding(
            ruleID: rule.id, severity: rule.description.defaultSeverity, message: message, location: .source(location),
            snippet: lineText(of: anchor), fixHint: fixHint, identity: identity)
    }

    /// 1-based line of a token's first character.
    package func line(of token: TokenSyntax) -> Int {
        lines.position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset).line
    }

    /// Lines from the first comment directly above a node (no blank line between) to its
    /// first line of code (attributes included): where a suppression comment may sit.
    package func leadingLines(of node: some SyntaxProtocol) -> ClosedRange<Int> {
        guard let token = node.firstToken(viewMode: .sourceAccurate) else { return 1...1 }
        let commentStart = lines.position(of: token.attachedCommentStart(docCommentsOnly: false)).line
        return commentStart...line(of: token)
    }

    /// The trimmed source line holding `token`.
    package func lineText(of token: TokenSyntax) -> String {
        lineText(line(of: token))
    }

    /// The trimmed source line `line`.
    package func lineText(_ line: Int) -> String {
        let range = bytes.withByteView { lines.range(ofLine: line, in: $0) }
        return String(lossyUTF8: bytes[range]).trimmingCharacters(in: [" ", "\t"])
    }
}

/// How messages say where release builds compile something.
enum CompiledPhrase {
    /// "compiled in release builds: not inside #if DEBUG", "compiled in release when os(iOS):
    /// enclosing #if !os(watchOS)".
    static func text(when: [String], enclosing: [String]) -> String {
        guard !enclosing.isEmpty else { return "compiled in release builds: not inside #if DEBUG" }
        let condition =
            when.isEmpty ? "compiled in release builds" : "compiled in release when \(when.joined(separator: " && "))"
        return "\(condition): enclosing \(enclosing.joined(separator: ", inside "))"
    }
}

extension RuleInput {
    package static let swiftSource = RuleInput("Swift source files")
}

extension SwiftSourceRule {
    package static var inputs: Set<RuleInput> { [.swiftSource] }
}
