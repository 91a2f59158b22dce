import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import SourceScan

/// `--fix` for `state-built-in-init`: a plain construction moves into StateObject's
/// autoclosure; anything that could notice the move keeps the code as it is, and the finding
/// says why.
@Suite struct ConstructionMoveTests {
    @Test func movesAPlainConstructionIntoTheAutoclosure() throws {
        let (text, result) = fixed(
            """
            struct SearchView: View {
                @StateObject private var search: SearchModel
                init(query: String) {
                    let model = SearchModel(query: query)
                    _search = StateObject(wrappedValue: model)
                }
                var body: some View { Text(search.title) }
            }
            """)
        #expect(
            text == """
                struct SearchView: View {
                    @StateObject private var search: SearchModel
                    init(query: String) {
                        _search = StateObject(wrappedValue: SearchModel(query: query))
                    }
                    var body: some View { Text(search.title) }
                }
                """)
        #expect(result.movedConstructions == 1)
        let fixedText = try #require(text)
        #expect(places(fixedText).isEmpty)
    }

    @Test func leavesACallBetweenConstructionAndAssignmentAndSaysWhy() {
        let source = """
            struct LogView: View {
                @StateObject private var log: LogModel
                init(name: String) {
                    let model = LogModel(name: name)
                    Analytics.track("log")
                    _log = StateObject(wrappedValue: model)
                }
                var body: some View { Text(log.title) }
            }
            """
        #expect(fixed(source).text == nil)
        let finding = scan(["View.swift": source]).findings.first { $0.ruleID == StateBuiltInInitRule.id }
        #expect(
            finding?.message.contains(
                "--fix leaves it: `Analytics.track(\"log\")` runs between the construction and the assignment and may have side effects"
            ) == true)
    }

    @Test func leavesAnObjectSetUpBeforeTheAssignment() {
        let source = """
            struct EpisodeView: View {
                @StateObject private var observer: EpisodeObserver
                init(episode: Episode) {
                    let observer = EpisodeObserver(episode: episode)
                    observer.start()
                    _observer = StateObject(wrappedValue: observer)
                }
                var body: some View { Text(observer.title) }
            }
            """
        #expect(fixed(source).text == nil)
        #expect(places(source) == ["6:47 state-built-in-init"])
        let finding = scan(["View.swift": source]).findings.first
        #expect(finding?.message.contains("`observer.start()` uses `observer` too") == true)
    }
}
