import Foundation

/// shipcheck's own JSON: every finding with every field, the input errors and the exit code.
public struct JSONReporter: Reporter {
    public init() {}

    struct Document: Encodable {
        var tool: String
        var version: String
        var exitCode: Int32
        var findings: [JSONFinding]
        var inputErrors: [InputError]
        var checks: [CheckSummary]
    }

    struct JSONFinding: Encodable {
        var ruleID: String
        var severity: Severity
        var message: String
        var path: String
        var line: Int?
        var column: Int?
        var endLine: Int?
        var endColumn: Int?
        var member: String?
        var architecture: String?
        var section: String?
        var symbol: String?
        var offset: UInt64?
        var snippet: String?
        var fixHint: String?
        var fingerprint: String
        /// Every occurrence behind a grouped finding.
        var related: [JSONRelated]?
    }

    struct JSONRelated: Encodable {
        var message: String
        var path: String
        var line: Int?
        var column: Int?
        var member: String?
        var architecture: String?
        var section: String?
        var offset: UInt64?
    }

    public func render(_ report: Report) -> String {
        let findings = report.findings.map { finding -> JSONFinding in
            var row = JSONFinding(ruleID: finding.ruleID, severity: finding.severity, message: finding.message, path: finding.location.path,
                                  snippet: finding.snippet, fixHint: finding.fixHint, fingerprint: finding.fingerprint)
            switch finding.location {
            case .source(let location):
                (row.line, row.column, row.endLine, row.endColumn) = (location.line, location.column, location.endLine, location.endColumn)
            case .binary(let location):
                (row.member, row.section, row.symbol, row.offset) = (location.member, location.section, location.symbol, location.offset)
                row.architecture = location.architecture
            case .file: break
            }
            row.related = finding.related?.map { related in
                var item = JSONRelated(message: related.message, path: related.location.path)
                switch related.location {
                case .source(let location): (item.line, item.column) = (location.line, location.column)
                case .binary(let location): (item.member, item.architecture, item.section, item.offset) = (location.member, location.architecture, location.section, location.offset)
                case .file: break
                }
                return item
            }
            return row
        }
        let document = Document(tool: Report.toolName, version: Report.toolVersion, exitCode: report.exitCode,
                                findings: findings, inputErrors: report.inputErrors, checks: report.checks)
        return JSONText.encode(document)
    }
}

/// Pretty, key-sorted JSON so reports and stored files diff well.
public enum JSONText {
    public static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail; an empty object is safer than a crash.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
