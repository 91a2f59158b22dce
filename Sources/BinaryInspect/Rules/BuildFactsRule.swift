import ShipcheckCore

/// Notes a reviewer wants beside the leaks: which build this is and how it was made.
package enum BuildFactsRule: BinaryRule {
    package static let description = RuleDescription(
        id: "binary-build-facts",
        summary: "Build facts: build id, toolchain and linker (.comment), debug sections present.",
        rationale: """
            Notes, never failures: the GNU build-id identifies the artifact; .comment names the \
            compiler and linker that produced it; .debug_* sections mean the binary was not \
            stripped (larger, and it carries source paths and local names).
            """,
        defaultSeverity: .note,
        triggeringExamples: [
            RuleExample("build-id 0123abcd"),
            RuleExample("comment Swift version 6.3.1"),
            RuleExample("section .debug_info 4096"),
        ],
        nonTriggeringExamples: [RuleExample("needed libc.so.6")])

    static func check(_ contents: BinaryContents, _ context: BinaryRuleContext) -> [Finding] {
        var findings: [Finding] = []
        if let buildID = contents.buildID {
            findings.append(contents.finding(
                description, context.severity, message: "build-id \(buildID)", section: ".note.gnu.build-id",
                symbol: nil, offset: nil, fix: "none needed: record it to match crash reports to this build", identity: "build-id"))
        }
        let tools = contents.comments.filter { !$0.isEmpty }
        if !tools.isEmpty {
            findings.append(contents.finding(
                description, context.severity, message: "built with: \(tools.joined(separator: "; "))", section: ".comment",
                symbol: nil, offset: nil, fix: "none needed", identity: "comment"))
        }
        if !contents.debugSections.isEmpty {
            let total = contents.debugSections.reduce(0) { $0 + $1.size }
            findings.append(contents.finding(
                description, context.severity,
                message: "not stripped: \(contents.debugSections.count) debug sections, \(total) bytes (\(contents.debugSections.map(\.name).joined(separator: ", ")))",
                section: contents.debugSections[0].name, symbol: nil, offset: nil,
                fix: "strip release artifacts (keep the debug info separately, e.g. objcopy --only-keep-debug)", identity: "debug-sections"))
        }
        return findings
    }
}
