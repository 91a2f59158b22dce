import Foundation
import ShipcheckCore
import SwiftSyntax

/// Turns a reference into the finding users read: at the reference, naming the declaration.
enum ArchiveBreakerFinding {
    static func make(for reference: ArchiveBreakingReference, path: String, file: ArchiveBreakerAnalysis.ParsedFile,
                     severity: Severity) -> Finding {
        let start = file.lines.position(of: reference.token.positionAfterSkippingLeadingTrivia.utf8Offset)
        let end = file.lines.position(of: reference.token.endPositionBeforeTrailingTrivia.utf8Offset)
        let location = SourceLocation(path: path, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
        let declaration = reference.declarations[0]
        let others = reference.declarations.count - 1
        let place = "declared at \(declaration.place)" + (others > 0 ? " and \(others) more place\(others == 1 ? "" : "s")" : "")
        let subject: String
        let compilerError: String
        switch reference.form {
        case .value:
            subject = reference.name
            compilerError = "cannot find '\(reference.name)' in scope"
        case .type:
            subject = reference.name
            compilerError = "cannot find type '\(reference.name)' in scope"
        case .member(let type):
            subject = "\(type).\(reference.name)"
            compilerError = "type '\(type)' has no member '\(reference.name)'"
        case .memberType(let type):
            subject = "\(type).\(reference.name)"
            compilerError = "'\(reference.name)' is not a member type of '\(type)'"
        }
        let exists = declaration.inDevelopmentAsset ? "exists only in Development Assets, which Archive builds drop" : "exists only in DEBUG builds"
        var finding = Finding(
            ruleID: ArchiveBreakerRule.id, severity: severity,
            message: "`\(subject)` \(exists) (\(place)) but is used by code compiled in release: the Archive build fails with \"\(compilerError)\"",
            location: .source(location), snippet: lineText(start.line, in: file), identity: "\(subject) in \(reference.enclosing)")
        finding.fixHint = "wrap this use in #if DEBUG … #endif too, or move `\(reference.name)` out of the DEBUG-only code"
        return finding
    }

    private static func lineText(_ line: Int, in file: ArchiveBreakerAnalysis.ParsedFile) -> String {
        let range = file.bytes.withUnsafeBytes { file.lines.range(ofLine: line, in: $0) }
        return String(lossyUTF8: file.bytes[range]).trimmingCharacters(in: [" ", "\t"])
    }
}
