import Foundation
import ShipcheckCore

/// The findings a team has accepted for now, by fingerprint, so a large existing app can adopt
/// the gate on day one and fail only on new findings.
///
/// Stored as JSON sorted by path, rule and fingerprint — one entry per finding, with what it
/// is about for reviewers (the first line of its snippet, never a line number, so moving code
/// does not rewrite the file) — so a baseline diffs well in code review and merges cleanly.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public var fingerprint: String
        public var rule: String
        public var path: String
        public var subject: String
    }

    public static let formatVersion = 1
    public var entries: [Entry]

    public init(findings: [Finding]) {
        var findings = findings
        if findings.contains(where: { $0.fingerprint.isEmpty }) { Fingerprinter.assign(&findings) }
        entries = findings
            .map { Entry(fingerprint: $0.fingerprint, rule: $0.ruleID, path: $0.location.path, subject: Self.subject(of: $0)) }
            .sorted { ($0.path, $0.rule, $0.fingerprint) < ($1.path, $1.rule, $1.fingerprint) }
    }

    static func subject(of finding: Finding) -> String {
        let text = finding.identity ?? finding.snippet ?? finding.ruleID
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? text
    }

    /// Findings whose fingerprint the baseline does not hold: the new ones.
    public func newFindings(in findings: [Finding]) -> [Finding] {
        let known = Set(entries.map(\.fingerprint))
        return findings.filter { !known.contains($0.fingerprint) }
    }

    private struct Document: Codable {
        var version: Int
        var tool: String
        var findings: [Entry]
    }

    public func serialized() -> String {
        JSONText.encode(Document(version: Self.formatVersion, tool: Report.toolName, findings: entries))
    }

    public func write(to path: String) throws(InputError) {
        try AtomicFile.write(serialized(), to: path)
    }

    public static func load(_ path: String, source: any FileSource = DiskFileSource()) throws(InputError) -> Baseline {
        let bytes = try source.read(path, displayPath: path, sizeLimit: 64 * 1024 * 1024)
        let document: Document
        do {
            document = try JSONDecoding.decode(Document.self, from: bytes)
        } catch {
            throw InputError(path: path, message: "not a shipcheck baseline: \(error)")
        }
        guard document.version == formatVersion else {
            throw InputError(path: path, message: "baseline format version \(document.version) is not supported (expected \(formatVersion))")
        }
        var baseline = Baseline(findings: [])
        baseline.entries = document.findings
        return baseline
    }
}
