import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

@Suite struct QueryStoreFormatTests {
    static let awkward = [
        "plain", "with space", "it's quoted", "back\\slash \\b(?:x)", "#hash", "- dash", "key: value", "true", "null",
        "~",
        "  leading and trailing  ", "tab\there", "ünïcødé ✓", "\"double\"", "[bracket", "{brace}", "*star", "&anchor",
        "!tag",
        "%percent", "@at", "`tick`", "line\u{2028}separator", "bell\u{07}", "yes", "1.0", "0x1F"
    ]

    @Test(arguments: awkward)
    func everyStringSurvivesARoundTrip(_ text: String) throws {
        let query = SavedQuery(name: "q", description: text, pattern: "p", include: [text], exclude: ["!" + text])
        let parsed = try QueryStoreFormat.parse(QueryStoreFormat.render([query]), file: "queries.yml")
        #expect(parsed == [query])
    }

    @Test func everyFieldSurvivesARoundTrip() throws {
        let queries = [
            SavedQuery(
                name: "merge-conflicts", description: "Markers", pattern: #"^<{7}(?=\s|$)"#, kind: .regex,
                caseSensitive: false, wholeWord: true, include: ["Sources/**", "!Sources/Fixtures"], exclude: ["*.md"],
                severity: .warning, expectNone: true),
            SavedQuery(name: "plain", pattern: "FIXME")
        ]
        let text = QueryStoreFormat.render(queries)
        #expect(try QueryStoreFormat.parse(text, file: "queries.yml") == queries)
        // Deterministic: rendering what was parsed gives the same bytes.
        #expect(QueryStoreFormat.render(try QueryStoreFormat.parse(text, file: "queries.yml")) == text)
    }

    @Test func defaultsAreLeftOutSoTheFileStaysShort() {
        let text = QueryStoreFormat.render([SavedQuery(name: "fixme", pattern: "FIXME")])
        #expect(text.hasSuffix("queries:\n  - name: fixme\n    pattern: FIXME\n    kind: literal\n"))
    }

    @Test func emptyStoreRendersAndParses() throws {
        #expect(try QueryStoreFormat.parse(QueryStoreFormat.render([]), file: "q.yml").isEmpty)
        #expect(try QueryStoreFormat.parse("", file: "q.yml").isEmpty)
    }

    @Test func unknownKeyIsRejectedWithItsLine() {
        let text = "queries:\n  - name: a\n    pattern: x\n    colour: red\n"
        let error = #expect(throws: InputError.self) { try QueryStoreFormat.parse(text, file: "q.yml") }
        #expect(error?.line == 4)
        #expect(error?.message.contains("colour") == true)
    }

    @Test func duplicateNamesAreRejectedWithBothLines() {
        let text = "queries:\n  - name: a\n    pattern: x\n  - name: a\n    pattern: y\n"
        let error = #expect(throws: InputError.self) { try QueryStoreFormat.parse(text, file: "q.yml") }
        #expect(error?.line == 4)
        #expect(error?.message.contains("line 2") == true)
    }

    @Test func invalidRegexInTheStoreNamesTheLine() {
        let text = "queries:\n  - name: a\n    kind: regex\n    pattern: 'unclosed('\n"
        let error = #expect(throws: InputError.self) { try QueryStoreFormat.parse(text, file: "q.yml") }
        #expect(error?.line == 4)
        #expect(error?.message.contains("invalid regular expression") == true)
    }

    @Test(arguments: [
        ("queries:\n  - name: a\n    pattern: x\n    kind: glob\n", 4, "literal or regex"),
        ("queries:\n  - name: a\n    pattern: x\n    expect: some\n", 4, "only be 'none'"),
        ("queries:\n  - name: a\n    pattern: x\n    severity: fatal\n", 4, "error, warning or note"),
        ("queries:\n  - name: a\n    pattern: x\n    whole-word: maybe\n", 4, "true or false"),
        ("queries:\n  - name: 'bad name'\n    pattern: x\n", 2, "invalid query name"),
        ("queries:\n  - description: no name\n    pattern: x\n", 2, "no 'name'"),
        ("queries:\n  - name: a\n    pattern: [x\n", 4, "invalid YAML")
    ])
    func badEntriesAreOneLineErrors(_ text: String, _ line: Int, _ words: String) {
        let error = #expect(throws: InputError.self) { try QueryStoreFormat.parse(text, file: "q.yml") }
        #expect(error?.line == line)
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
    }

    @Test func personalStoreFollowsXDGThenHome() {
        #expect(
            QueryStore.personal(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]).path
                == "/x/cfg/shipcheck/queries.yml")
        #expect(
            QueryStore.personal(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path
                == "/h/.config/shipcheck/queries.yml")
        #expect(QueryStore.personal(environment: ["HOME": "/h"]).path == "/h/.config/shipcheck/queries.yml")
    }

    @Test func repositoryStoreUsesTheConfiguredPath() {
        var settings = QuerySettings()
        settings.file = "ci/queries.yml"
        var configuration = Configuration()
        configuration.setSettings(settings)
        #expect(QueryStore.repository(root: "/repo", configuration: configuration).path == "/repo/ci/queries.yml")
        #expect(
            QueryStore.repository(root: "/repo", configuration: Configuration()).path == "/repo/.shipcheck/queries.yml")
    }

    @Test func failedChangeLeavesTheStoreAsItWas() throws {
        let directory = TemporaryDirectory()
        let store = QueryStore(path: directory.path + "/q.yml", scope: .repository)
        try store.modify { (queries: inout [SavedQuery]) throws(InputError) in
            queries.append(SavedQuery(name: "a", pattern: "x"))
        }
        let before = directory.read("q.yml")
        #expect(throws: InputError.self) {
            try store.modify { (queries: inout [SavedQuery]) throws(InputError) in
                queries.removeAll()
                throw InputError(path: store.path, message: "refused")
            }
        }
        #expect(directory.read("q.yml") == before)
        #expect(try store.load().map(\.name) == ["a"])
    }
}
