import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import ReleaseAudit

/// A baseline rewritten over an existing one keeps that file's order and says what changed.
@Suite struct BaselineUpdateTests {
    private func finding(_ path: String, _ subject: String, rule: String = "preview-outside-debug") -> Finding {
        finalized([Finding(ruleID: rule, severity: .error, message: "m", location: .file(path: path), snippet: subject)]
        )[0]
    }

    private func paths(_ entries: [Baseline.Entry]) -> [String] { entries.map { "\($0.path) \($0.subject)" } }

    @Test func sortedFileStaysSortedAndSaysWhatWasAddedAndDropped() {
        let old = Baseline(findings: [finding("A.swift", "a"), finding("C.swift", "c"), finding("E.swift", "e")])
        let update = old.updated(with: [
            finding("A.swift", "a"), finding("B.swift", "b"), finding("E.swift", "e"), finding("F.swift", "f")
        ])
        #expect(paths(update.baseline.entries) == ["A.swift a", "B.swift b", "E.swift e", "F.swift f"])
        #expect(
            update.baseline
                == Baseline(findings: [
                    finding("A.swift", "a"), finding("B.swift", "b"), finding("E.swift", "e"), finding("F.swift", "f")
                ]),
            "in a sorted file, where a fresh write puts them")
        #expect(paths(update.added) == ["B.swift b", "F.swift f"])
        #expect(paths(update.dropped) == ["C.swift c"])
    }

    @Test func aReorderedFileKeepsItsOrderAndItsEntriesText() {
        var old = Baseline(findings: [finding("A.swift", "a"), finding("M.swift", "m"), finding("Z.swift", "z")])
        old.entries.reverse()  // Z, M, A: a team's order
        old.entries[1].subject = "kept as the file has it"
        let update = old.updated(with: [
            finding("A.swift", "a"), finding("M.swift", "m"),
            finding("Z.swift", "z"), finding("B.swift", "b")
        ])
        #expect(
            paths(update.baseline.entries) == ["B.swift b", "Z.swift z", "M.swift kept as the file has it", "A.swift a"]
        )
        #expect(update.dropped.isEmpty)
    }

    @Test func fixedEntriesAreThoseNoFindingHas() {
        let old = Baseline(findings: [finding("A.swift", "a"), finding("B.swift", "b")])
        #expect(paths(old.fixedEntries(among: [finding("B.swift", "b"), finding("C.swift", "c")])) == ["A.swift a"])
        #expect(old.fixedEntries(among: [finding("A.swift", "a"), finding("B.swift", "b")]).isEmpty)
    }
}
