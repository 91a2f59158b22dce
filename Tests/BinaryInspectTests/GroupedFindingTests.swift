import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// One fact, one finding: a binary's build paths are one note, its strings matching one
/// pattern one warning, each with the count and three examples; every occurrence is kept for
/// JSON, SARIF and `--verbose`.
@Suite struct GroupedFindingTests {
    static let contents = try! BinaryContents(
        example: """
            string /home/build-user/swift/lib/Demangling/Demangler.cpp
            string /home/build-user/swift/lib/AST/Decl.cpp
            string Fatal error at /home/build-user/swiftpm/Sources/Build/Plan.swift:42
            string /home/build-user/cmark/extensions/table.c
            string Lorem ipsum dolor sit amet
            string lorem ipsum again
            string /Users/alice/App/Preview Content/users.json
            string /usr/share/zoneinfo/
            """)

    static func findings() throws -> [Finding] {
        BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).check(contents)
    }

    @Test func buildPathsAreOneNoteWithCountPrefixAndExamples() throws {
        let paths = try Self.findings().filter { $0.ruleID == "binary-build-paths" }
        #expect(paths.count == 1)
        let note = try #require(paths.first)
        #expect(note.severity == .note)
        #expect(
            note.message
                == "4 absolute build paths in read-only data, all under /home/build-user/, e.g. \"/home/build-user/swift/lib/Demangling/Demangler.cpp\", \"/home/build-user/swift/lib/AST/Decl.cpp\", \"/home/build-user/swiftpm/Sources/Build/Plan.swift\""
        )
        #expect(
            note.fixHint?.contains("-file-prefix-map /home/build-user/=.") == true
                && note.fixHint?.contains("#fileID") == true)
        #expect(note.related?.count == 4)
        #expect(note.snippet?.split(separator: "\n").count == 3)
    }

    @Test func fixtureStringsAreOneWarningPerPattern() throws {
        let strings = try Self.findings().filter { $0.ruleID == "binary-fixture-string" }
        #expect(
            strings.map(\.message) == [
                "string \"/Users/alice/App/Preview Content/users.json\" in .rodata matches 'Preview Content/' (43 bytes)",
                "2 strings in read-only data match 'lorem ipsum', e.g. \"Lorem ipsum dolor sit amet\", \"lorem ipsum again\""
            ])
        #expect(strings.map { $0.related?.count ?? 1 } == [1, 2])
    }

    @Test func everyOccurrenceInJSONSARIFAndVerboseText() throws {
        let report = Report(findings: finalized(try Self.findings()))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReporter().render(report).utf8)) as? [String: Any])
        let paths = try #require(
            (json["findings"] as? [[String: Any]])?.first { $0["ruleID"] as? String == "binary-build-paths" })
        // An example string's offset is its line in the example.
        #expect((paths["related"] as? [[String: Any]])?.map { $0["offset"] as? Int } == [1, 2, 3, 4])

        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(SARIFReporter().render(report).utf8)) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let result = try #require(results.first { $0["ruleId"] as? String == "binary-build-paths" })
        let related = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 4 && related.first?["id"] as? Int == 1)
        #expect(
            (related.last?["message"] as? [String: Any])?["text"] as? String
                == "\"/home/build-user/cmark/extensions/table.c\"")

        let quiet = TextReporter(color: false, heading: false).render(report)
        let verbose = TextReporter(color: false, heading: false, verbose: true).render(report)
        #expect(quiet.split(separator: "\n").count == 3)
        #expect(verbose.split(separator: "\n").count == 3 + 4 + 2)
        #expect(
            verbose.contains(
                "Example:.rodata:0x4: note: \"/home/build-user/cmark/extensions/table.c\" [binary-build-paths]\n"))
    }
}
