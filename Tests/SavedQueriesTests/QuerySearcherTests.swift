import ScanEngine
import ShipcheckCore
import Testing

@testable import SavedQueries

@Suite struct QuerySearcherTests {
    func search(_ query: SavedQuery, _ text: String) throws -> [QueryMatch] {
        let searcher = try QuerySearcher(query)
        let bytes = Array(text.utf8)
        let folded = bytes.withByteView { Matcher.folded($0) }
        return bytes.withByteView { buffer in
            folded.withByteView { folded in
                MatchSubject.with(bytes: buffer, folded: folded) {
                    searcher.search(&$0, deadline: Deadline(seconds: nil)).matches
                }
            }
        }
    }

    func places(_ matches: [QueryMatch]) -> [String] { matches.map { "\($0.line):\($0.column)-\($0.endColumn)" } }

    @Test func literalReportsEveryOccurrenceWithLineColumnAndLineText() throws {
        let matches = try search(SavedQuery(name: "q", pattern: "ab"), "xx ab ab\r\n\nab\nnone\n")
        #expect(places(matches) == ["1:4-6", "1:7-9", "3:1-3"])
        #expect(matches.map(\.lineText) == ["xx ab ab", "xx ab ab", "ab"])
    }

    @Test func literalIgnoringCase() throws {
        let matches = try search(
            SavedQuery(name: "q", pattern: "FixMe", caseSensitive: false), "fixme FIXME FiXmE fix me")
        #expect(places(matches) == ["1:1-6", "1:7-12", "1:13-18"])
    }

    @Test func nonASCIILiteralIgnoringCaseUsesUnicodeFolding() throws {
        let matches = try search(SavedQuery(name: "q", pattern: "Ärger", caseSensitive: false), "kein ärger\nÄRGER\n")
        #expect(places(matches) == ["1:6-12", "2:1-7"])
    }

    @Test func wholeWordSkipsMatchesInsideWords() throws {
        let query = SavedQuery(name: "q", pattern: "log", wholeWord: true)
        #expect(places(try search(query, "log(x) catalog logger _log log")) == ["1:1-4", "1:28-31"])
        let regex = SavedQuery(name: "q", pattern: "lo+g", kind: .regex, wholeWord: true)
        #expect(places(try search(regex, "looog xlog log2 log")) == ["1:1-6", "1:17-20"])
    }

    @Test func regexColumnsCountUTF8Bytes() throws {
        let matches = try search(SavedQuery(name: "q", pattern: "b+", kind: .regex), "äö bb\n")
        #expect(places(matches) == ["1:6-8"])
    }

    @Test func regexMatchesLineByLineWithAnchors() throws {
        let query = SavedQuery(name: "q", pattern: "^end$", kind: .regex)
        #expect(places(try search(query, "end\nthe end\nend\r\nend")) == ["1:1-4", "3:1-4", "4:1-4"])
    }

    @Test func mergeConflictPresetFindsOpenersBasesAndClosersButNotUnderlines() throws {
        let preset = try #require(QueryPresets.named("merge-conflicts"))
        let text =
            "<<<<<<< HEAD\nours\n||||||| base\n=======\ntheirs\n>>>>>>> feature\n<<<<<<<< eight\n========\n a <<<<<<< b\n=======\r\n>>>>>>>"
        #expect(places(try search(preset, text)) == ["1:1-8", "3:1-8", "6:1-8", "11:1-8"])
    }

    @Test func pathologicalRegexIsCutShortByTheDeadline() throws {
        let searcher = try QuerySearcher(SavedQuery(name: "slow", pattern: "(a+)+$", kind: .regex))
        let bytes = Array((String(repeating: "a", count: 40) + "b\n").utf8)
        let outcome = bytes.withByteView { buffer in
            MatchSubject.with(bytes: buffer, folded: buffer) { searcher.search(&$0, deadline: Deadline(seconds: 0.2)) }
        }
        #expect(outcome.cutShort)
        #expect(outcome.matches.isEmpty)
    }
}
