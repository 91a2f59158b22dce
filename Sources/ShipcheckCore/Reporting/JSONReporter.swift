import Foundation
import ScanEngine

/// shipcheck's own JSON: every finding with every field, the input errors and the exit code.
package struct JSONReporter: Reporter {
    package init() {}

    struct JSONFinding: Encodable {
        var ruleID: String
        var severity: Severity
        var message: String
        var place: JSONPlace
        var snippet: String?
        var fixHint: String?
        var fingerprint: String
        /// Every occurrence behind a grouped finding.
        var related: [JSONRelated]?

        private enum CodingKeys: String, CodingKey {
            case ruleID, severity, message, snippet, fixHint, fingerprint, related
        }

        /// The place's fields sit beside the others (`path`, `line`, `section`, …).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ruleID, forKey: .ruleID)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(snippet, forKey: .snippet)
            try container.encodeIfPresent(fixHint, forKey: .fixHint)
            try container.encode(fingerprint, forKey: .fingerprint)
            try container.encodeIfPresent(related, forKey: .related)
            try place.encode(to: encoder)
        }
    }

    struct JSONRelated: Encodable {
        var message: String
        var place: JSONPlace

        private enum CodingKeys: String, CodingKey { case message }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message, forKey: .message)
            try place.encode(to: encoder)
        }
    }

    /// Where a finding is, as flat fields.
    struct JSONPlace: Encodable {
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

        init(_ location: Location) {
            path = location.path
            switch location {
            case .source(let location):
                (line, column, endLine, endColumn) = (
                    location.line, location.column, location.endLine, location.endColumn
                )
            case .binary(let location):
                (member, architecture, section, symbol, offset) = (
                    location.member, location.architecture, location.section, location.symbol, location.offset
                )
            case .file: break
            }
        }
    }

    package func write(_ report: Report, to sink: ReportSink) {
        let findings = report.findings
        let encoder = JSONText.encoder()
        let document: [String: JSONOutline] = [
            "tool": .serialized(JSONText.serialize(Report.toolName)),
            "version": .serialized(JSONText.serialize(Report.toolVersion)),
            "exitCode": .serialized("\(report.exitCode)"),
            "findings": .elements(count: findings.count) {
                JSONText.serialize(Self.finding(findings[$0]), with: encoder)
            },
            "inputErrors": .serialized(JSONText.serialize(report.inputErrors)),
            "checks": .serialized(JSONText.serialize(report.checks))
        ]
        JSONOutline.object(document).write(to: sink)
    }

    static func finding(_ finding: Finding) -> JSONFinding {
        JSONFinding(
            ruleID: finding.ruleID, severity: finding.severity, message: finding.message,
            place: JSONPlace(finding.location),
            snippet: finding.snippet, fixHint: finding.fixHint, fingerprint: finding.fingerprint,
            related: finding.related?.map { JSONRelated(message: $0.message, place: JSONPlace($0.location)) })
    }
}

/// Pretty, key-sorted JSON so reports and stored files diff well.
package enum JSONText {
    /// A file's text: the value and a final newline.
    package static func encode(_ value: some Encodable) -> String { serialize(value) + "\n" }

    /// The value alone (a part of a document written piece by piece, `JSONOutline`); one
    /// `encoder` serves every element of a long array.
    static func serialize(_ value: some Encodable, with encoder: JSONEncoder = encoder()) -> String {
        // Encoding plain value types cannot fail; an empty object is safer than a crash.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
