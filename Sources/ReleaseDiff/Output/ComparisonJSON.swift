import Foundation
import ShipcheckCore

/// The comparison as JSON (`shipcheck diff --format json`): every section with exact byte
/// counts, beside the report of findings (`JSONReporter`'s document, under `report`) and the
/// findings that went away.
package enum ComparisonJSON {
    struct Document: Encodable {
        var old: Side
        var new: Side
        var identical: Bool
        var identity: [ValueChange]
        var architectures: FactChange
        var images: FactChange
        var changedImages: [ImageChange]
        var libraries: FactChange
        var sdks: FactChange
        var sdkVersions: [ValueChange]
        var declarations: [FactChange]
        var parts: [SizeRow]
        var total: SizeRow
        var largestGrowth: [SizeRow]
        var filesAdded: Int
        var filesRemoved: Int
        var goneFindings: [Gone]
    }

    struct Side: Encodable {
        var path: String
        var family: String
        var kind: String
        var identifier: String?
        var version: String?
        var build: String?
    }

    struct Gone: Encodable {
        var ruleID: String
        var severity: Severity
        var message: String
        var path: String
    }

    /// `{"comparison": …, "report": …}`: `reportJSON` is the report as `JSONReporter` wrote it.
    package static func render(_ comparison: ReleaseComparison, gone: [Finding], reportJSON: String) -> String {
        func side(_ facts: ReleaseFacts) -> Side {
            Side(
                path: facts.root, family: facts.family.rawValue, kind: facts.kind,
                identifier: facts.identity.identifier,
                version: facts.identity.version, build: facts.identity.build)
        }
        let document = Document(
            old: side(comparison.old), new: side(comparison.new), identical: comparison.isIdentical,
            identity: comparison.identity, architectures: comparison.architectures, images: comparison.images,
            changedImages: comparison.changedImages, libraries: comparison.libraries, sdks: comparison.sdks,
            sdkVersions: comparison.sdkVersions,
            declarations: comparison.declarations, parts: comparison.parts, total: comparison.total,
            largestGrowth: comparison.largestGrowth, filesAdded: comparison.files.added.count,
            filesRemoved: comparison.files.removed.count,
            goneFindings: gone.map {
                Gone(ruleID: $0.ruleID, severity: $0.severity, message: $0.message, path: $0.location.path)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        let report = reportJSON.trimmingCharacters(in: .whitespacesAndNewlines)
        return
            "{\n\"comparison\": \(String(decoding: data, as: UTF8.self)),\n\"report\": \(report.isEmpty ? "null" : report)\n}\n"
    }
}
