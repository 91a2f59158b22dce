import Foundation
import ShipcheckCore
import SwiftSyntax

/// Turns syntax positions into findings: locations, snippets, the standard message phrases.
struct FindingDescriber {
    let path: String
    let bytes: [UInt8]
    let lines: LineTable

    func line(of token: TokenSyntax) -> Int {
        lines.position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset).line
    }

    /// Lines from the first comment directly above a node (no blank line between) to its
    /// first line of code (attributes included): where a suppression comment may sit.
    func leadingLines(of node: Syntax) -> ClosedRange<Int> {
        guard let token = node.firstToken(viewMode: .sourceAccurate) else { return 1...1 }
        let commentStart = lines.position(of: token.attachedCommentStart(docCommentsOnly: false)).line
        return commentStart...line(of: token)
    }

    /// The trimmed source line holding `token`.
    func lineText(of token: TokenSyntax) -> String {
        let range = bytes.withUnsafeBytes { lines.range(ofLine: line(of: token), in: $0) }
        return String(lossyUTF8: bytes[range]).trimmingCharacters(in: [" ", "\t"])
    }

    func finding(rule: RuleDescription, severity: Severity, anchor: TokenSyntax, message: String, identity: String) -> Finding {
        let start = lines.position(of: anchor.positionAfterSkippingLeadingTrivia.utf8Offset)
        var endToken = anchor
        // `#Preview`: the `#` and the name together.
        if anchor.tokenKind == .pound, let next = anchor.nextToken(viewMode: .sourceAccurate) { endToken = next }
        let end = lines.position(of: endToken.endPositionBeforeTrailingTrivia.utf8Offset)
        let location = SourceLocation(path: path, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
        return Finding(ruleID: rule.id, severity: severity, message: message, location: .source(location),
                       snippet: lineText(of: anchor), identity: identity)
    }

    /// "compiled in release builds: not inside #if DEBUG", "compiled in release when os(iOS):
    /// enclosing #if !os(watchOS)".
    static func compiledPhrase(when: [String], enclosing: [String]) -> String {
        guard !enclosing.isEmpty else { return "compiled in release builds: not inside #if DEBUG" }
        let condition = when.isEmpty ? "compiled in release builds" : "compiled in release when \(when.joined(separator: " && "))"
        return "\(condition): enclosing \(enclosing.joined(separator: ", inside "))"
    }
}
