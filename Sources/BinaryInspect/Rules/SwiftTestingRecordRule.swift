import ShipcheckCore

/// swift-testing `@Test` / `@Suite` / exit-test records in `swift5_tests`.
package enum SwiftTestingRecordRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-swift-testing-record",
        summary: "swift-testing test records (swift5_tests) ship in the binary.",
        rationale: """
            Every `@Test` function, `@Suite` and exit test leaves a record in the swift5_tests \
            section, which the linker keeps even with --gc-sections. Records in a release artifact \
            mean test code was compiled into it.
            """,
        defaultSeverity: .error,
        triggeringExamples: [RuleExample("↓test-record test"), RuleExample("↓test-record exit")],
        nonTriggeringExamples: [RuleExample("conformance App.ContentView: SwiftUI.View")])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        contents.metadata.tests.map { record in
            let what = record.kind == "exit" ? "exit test" : "swift-testing '\(record.kind)' record"
            let name = record.accessor.map { " for \($0)" } ?? ""
            return contents.finding(
                description, context.severity,
                message: "\(what)\(name) ships in this build (\(record.size)-byte record)",
                section: record.place.section, symbol: record.accessor, offset: record.place.offset,
                fix: "keep @Test code in test targets; do not link test targets or test-support modules into the app",
                identity: "\(record.kind) \(record.accessor ?? "#\(record.place.offset)")")
        }
    }
}
