import Foundation
import ScanEngine
import ShipcheckCore

/// The findings a team has accepted for now, by fingerprint, so a large existing app can adopt
/// the gate on day one and fail only on new findings.
///
/// Stored as JSON sorted by path, rule and fingerprint — one entry per finding, with what it
/// is about for reviewers (the first line of its snippet, never a line number, so moving code
/// does not rewrite the file) — so a baseline diffs well in code review and merges cleanly.
package struct Baseline: Sendable, Equatable {
    package struct Entry: Codable, Sendable, Equatable {
        package var fingerprint: String
        package var rule: String
        package var path: String
        package var subject: String
    }

    package static let formatVersion = 1
    package var entries: [Entry]

    /// The baseline of finalized findings (`CheckResult.finalized` fingerprints them).
    package init(findings: [Finding]) {
        assert(findings.allSatisfy { !$0.fingerprint.isEmpty }, "a baseline records finalized findings")
        entries =
            findings.map {
                Entry(
                    fingerprint: $0.fingerprint, rule: $0.ruleID, path: $0.location.path, subject: Self.subject(of: $0))
            }
            .sorted(by: Self.sortsBefore)
    }

    static func subject(of finding: Finding) -> String {
        let text = finding.identity ?? finding.snippet ?? finding.ruleID
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? text
    }

    /// Findings whose fingerprint the baseline does not hold: the new ones.
    package func newFindings(in findings: [Finding]) -> [Finding] {
        let known = Set(entries.map(\.fingerprint))
        return findings.filter { !known.contains($0.fingerprint) }
    }

    /// Entries no finding of `findings` has the fingerprint of: recorded findings that no longer
    /// occur (fixed, or gone out of scope), in the baseline's order.
    package func fixedEntries(among findings: [Finding]) -> [Entry] {
        let current = Set(findings.map(\.fingerprint))
        return entries.filter { !current.contains($0.fingerprint) }
    }

    /// What rewriting a baseline with today's findings changed.
    package struct Update: Sendable, Equatable {
        package var baseline: Baseline
        /// Findings it did not hold, in sorted order.
        package var added: [Entry]
        /// Entries no finding has any more, in the old file's order.
        package var dropped: [Entry]
    }

    /// This baseline rewritten for `findings`: entries still found stay as they are, in their
    /// order (a file a team reordered or wrote with an older sort keeps its diff small); entries
    /// no longer found are dropped; a new finding is placed before the first kept entry that
    /// sorts after it (in a sorted file, where a fresh write would put it).
    package func updated(with findings: [Finding]) -> Update {
        let current = Baseline(findings: findings).entries
        var seen = Set<String>()
        let known = Set(entries.map(\.fingerprint))
        let found = Set(current.map(\.fingerprint))
        let kept = entries.filter { found.contains($0.fingerprint) && seen.insert($0.fingerprint).inserted }
        let added = current.filter { !known.contains($0.fingerprint) }
        var merged: [Entry] = []
        merged.reserveCapacity(kept.count + added.count)
        var next = added[...]
        for entry in kept {
            while let first = next.first, Self.sortsBefore(first, entry) {
                merged.append(first)
                next = next.dropFirst()
            }
            merged.append(entry)
        }
        merged += next
        var baseline = Baseline(findings: [])
        baseline.entries = merged
        return Update(baseline: baseline, added: added, dropped: entries.filter { !found.contains($0.fingerprint) })
    }

    /// The order a baseline is written in: path, rule, fingerprint.
    private static func sortsBefore(_ lhs: Entry, _ rhs: Entry) -> Bool {
        (lhs.path, lhs.rule, lhs.fingerprint) < (rhs.path, rhs.rule, rhs.fingerprint)
    }

    private struct Document: Codable {
        var version: Int
        var tool: String
        var findings: [Entry]
    }

    package func serialized() -> String {
        JSONText.encode(Document(version: Self.formatVersion, tool: Report.toolName, findings: entries))
    }

    package func write(to path: String) throws(InputError) {
        try AtomicFile.write(serialized(), to: path)
    }

    package static func load(_ path: String, source: any FileSource = DiskFileSource()) throws(InputError) -> Baseline {
        let bytes = try source.read(path, displayPath: path, sizeLimit: 64 * 1024 * 1024)
        let document: Document
        do {
            document = try JSONDecoding.decode(Document.self, from: bytes)
        } catch {
            throw InputError(path: path, message: "not a shipcheck baseline: \(error)")
        }
        guard document.version == formatVersion else {
            throw InputError(
                path: path,
                message: "baseline format version \(document.version) is not supported (expected \(formatVersion))")
        }
        var baseline = Baseline(findings: [])
        baseline.entries = document.findings
        return baseline
    }
}
