/// SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it: the full rule list
/// in `tool.driver.rules`, repo-relative URIs against `%SRCROOT%`, regions, and
/// `partialFingerprints` so alerts follow code that moves.
package struct SARIFReporter: Reporter {
    package static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    package static let fingerprintKey = "shipcheck/v1"

    package init() {}

    package func write(_ report: Report, to sink: ReportSink) {
        let ruleIndex = Dictionary(
            report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rules: [JSONValue] = report.rules.map { rule in
            .object([
                "id": .string(rule.id),
                "name": .string(Self.pascalCase(rule.id)),
                "shortDescription": .object(["text": .string(rule.summary)]),
                "fullDescription": .object(["text": .string(rule.rationale)]),
                "help": .object(["text": .string(rule.help)]),
                "defaultConfiguration": .object(["level": .string(rule.defaultSeverity.rawValue)])
            ])
        }
        func result(_ finding: Finding) -> JSONValue {
            var result: [String: JSONValue] = [
                "ruleId": .string(finding.ruleID),
                "level": .string(finding.severity.rawValue),
                "message": .object(["text": .string(finding.message + (finding.fixHint.map { " Fix: \($0)" } ?? ""))]),
                "locations": .array([.object(location(finding.location, snippet: finding.snippet))]),
                "partialFingerprints": .object([Self.fingerprintKey: .string(finding.fingerprint)])
            ]
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = .number(Double(index)) }
            if let related = finding.related, !related.isEmpty {
                result["relatedLocations"] = .array(
                    related.enumerated().map { index, item in
                        var object = location(item.location, snippet: nil)
                        object["id"] = .number(Double(index + 1))
                        object["message"] = .object(["text": .string(item.message)])
                        return .object(object)
                    })
            }
            return .object(result)
        }
        let notifications: [JSONValue] = report.inputErrors.map { error in
            .object([
                "level": .string("error"),
                "message": .object(["text": .string(error.message)]),
                "locations": .array([.object(location(.file(path: error.path), snippet: nil))])
            ])
        }
        let findings = report.findings
        let run: [String: JSONOutline] = [
            "tool": .value(
                .object([
                    "driver": .object([
                        "name": .string(Report.toolName),
                        "version": .string(Report.toolVersion),
                        "semanticVersion": .string(Report.toolVersion),
                        "informationUri": .string(Report.informationURI),
                        "rules": .array(rules)
                    ])
                ])),
            "originalUriBaseIds": .value(
                .object([
                    "%SRCROOT%": .object(["description": .object(["text": .string("The scanned root")])])
                ])),
            "invocations": .value(
                .array([
                    .object([
                        "executionSuccessful": .bool(report.inputErrors.isEmpty),
                        "exitCode": .number(Double(report.exitCode)),
                        "toolExecutionNotifications": .array(notifications)
                    ])
                ])),
            "results": .elements(count: findings.count) { result(findings[$0]).serialized() }
        ]
        let document: [String: JSONOutline] = [
            "$schema": .value(.string(Self.schema)), "version": .value(.string("2.1.0")), "runs": .array([.object(run)])
        ]
        JSONOutline.object(document).write(to: sink)
    }

    private func location(_ location: Location, snippet: String?) -> [String: JSONValue] {
        var physical: [String: JSONValue] = [
            "artifactLocation": .object(["uri": .string(Self.uri(location.path)), "uriBaseId": .string("%SRCROOT%")])
        ]
        var result: [String: JSONValue] = [:]
        switch location {
        case .source(let source):
            var region: [String: JSONValue] = [
                "startLine": .number(Double(source.line)), "startColumn": .number(Double(source.column))
            ]
            if let endLine = source.endLine { region["endLine"] = .number(Double(endLine)) }
            if let endColumn = source.endColumn { region["endColumn"] = .number(Double(endColumn)) }
            if let snippet { region["snippet"] = .object(["text": .string(snippet)]) }
            physical["region"] = .object(region)
        case .binary(let binary):
            if let offset = binary.offset { physical["region"] = .object(["byteOffset": .number(Double(offset))]) }
            var logical: [JSONValue] = []
            if let symbol = binary.symbol {
                logical.append(.object(["name": .string(symbol), "kind": .string("function")]))
            }
            if let section = binary.section {
                logical.append(.object(["name": .string(section), "kind": .string("module")]))
            }
            if let member = binary.member {
                logical.append(.object(["name": .string(member), "kind": .string("module")]))
            }
            if let architecture = binary.architecture {
                logical.append(.object(["name": .string(architecture), "kind": .string("module")]))
            }
            if !logical.isEmpty { result["logicalLocations"] = .array(logical) }
        case .file:
            break
        }
        result["physicalLocation"] = .object(physical)
        return result
    }

    /// A relative URI reference: each path segment percent-encoded (RFC 3986), `/` kept.
    static func uri(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                text += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }

    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
