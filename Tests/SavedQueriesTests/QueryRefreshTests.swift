import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

@Suite struct QueryRefreshTests {
    let directory = TemporaryDirectory()
    let query = SavedQuery(name: "fixme", pattern: "FIXME")

    /// A `query run` of one query (findings kept, state saved), as the command does it.
    func refresh(_ query: SavedQuery? = nil) -> QueryRefresh {
        let scoped = ScopedQuery(query: query ?? self.query, scope: .repository, storePath: "q.yml")
        return Frontend.runQueries(
            [scoped], root: directory.path, configuration: Configuration(), timeout: nil, failingSeverity: .error
        ).refreshes[0]
    }

    @Test func firstRunHasNothingToCompare() {
        directory.write("A.swift", "// FIXME one\n")
        let first = refresh()
        #expect(first.previous == nil)
        #expect(first.new.isEmpty && first.gone.isEmpty)
        #expect(first.findings.count == 1)
    }

    @Test func unrelatedEditAboveAMatchChangesNothing() {
        directory.write("A.swift", "// FIXME one\nlet x = 1\n// FIXME one\n")
        _ = refresh()
        directory.write("A.swift", "import Foundation\n\n\n// FIXME one\nlet x = 1\n// FIXME one\n")
        let second = refresh()
        #expect(second.comparable)
        #expect(second.new.isEmpty)
        #expect(second.gone.isEmpty)
        #expect(second.findings.map { $0.location.line } == [4, 6])
    }

    @Test func addedAndRemovedMatchesAreNewAndGone() {
        directory.write("A.swift", "// FIXME one\n// FIXME two\n")
        directory.write("B.swift", "// FIXME three\n")
        _ = refresh()
        directory.write("A.swift", "// FIXME two\n// FIXME four\n")
        let second = refresh()
        #expect(second.new.map { $0.snippet } == ["// FIXME four"])
        #expect(second.gone.map(\.lineText) == ["// FIXME one"])
        #expect(second.gone.map(\.path) == ["A.swift"])
    }

    @Test func aThirdEqualLineIsNewButTheFirstTwoAreNot() {
        directory.write("A.swift", "FIXME\nFIXME\n")
        _ = refresh()
        directory.write("A.swift", "FIXME\nFIXME\nFIXME\n")
        #expect(refresh().new.count == 1)
    }

    @Test func changedQueryIsNotCompared() {
        directory.write("A.swift", "FIXME\n")
        _ = refresh()
        var changed = query
        changed.caseSensitive = false
        let second = refresh(changed)
        #expect(!second.comparable)
        #expect(second.new.isEmpty && second.gone.isEmpty)
    }
}
