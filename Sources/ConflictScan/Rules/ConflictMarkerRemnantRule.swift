import ShipcheckCore

/// An opener, base or closer marker left behind without the rest of its block.
enum ConflictMarkerRemnantRule {
    static let id = "conflict-marker-remnant"

    static let description = RuleDescription(
        id: id,
        summary: "A conflict opener, base or closer marker is left over outside a complete block.",
        rationale: """
            A hand-resolved conflict often keeps one marker: the `>>>>>>> feature` line below the \
            kept code, or an opener whose separator and closer were deleted. Those lines are as \
            fatal to a build (or as embarrassing in a shipped file) as a whole block. Each \
            `<<<<<<<`, `|||||||` or `>>>>>>>` line of the marker size that is not part of a complete \
            block is one finding. A lone `=======` line is never reported: it is a Markdown or \
            reStructuredText underline far more often than a conflict. Silence one on purpose with \
            `shipcheck:ignore conflict-marker` (or `conflict-marker-remnant`) on the line or the line \
            above it.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                let retries = 5
                ↓>>>>>>> feature/retry
                """),
            RuleExample("""
                ↓<<<<<<< HEAD
                let retries = 3
                """),
            RuleExample("""
                let retries = 3
                ↓||||||| merged common ancestors
                let retries = 1
                """),
            RuleExample("↓>>>>>>> main\r\n"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                Chapter
                =======
                """, path: "README.md"),
            RuleExample("""
                >>>>>>>> eight characters
                x >>>>>>> not at the start
                """),
            RuleExample("""
                >>>>>>> feature  # shipcheck:ignore conflict-marker-remnant
                """),
        ]
    )

    static func finding(_ remnant: ConflictRemnant, path: String, severity: Severity) -> Finding {
        let what: String
        switch remnant.kind {
        case .opener: what = "conflict opener with no separator and closer after it"
        case .base: what = "conflict base marker outside a complete block"
        case .closer: what = "conflict closer with no opener and separator before it"
        case .separator: what = "conflict separator outside a complete block"
        }
        var message = "leftover \(what)"
        if !remnant.marker.label.isEmpty { message += " ('\(remnant.marker.label)')" }
        if remnant.markerSize != ContentScanner.defaultMarkerSize { message += "; marker size \(remnant.markerSize)" }
        return Finding(
            ruleID: id, severity: severity, message: message,
            location: .source(SourceLocation(path: path, line: remnant.marker.line, column: 1,
                                             endLine: remnant.marker.line, endColumn: remnant.marker.byteLength + 1)),
            snippet: remnant.marker.text,
            fixHint: "finish resolving the conflict: delete the marker line and check the code around it",
            identity: "\(remnant.kind.rawValue)\u{1F}\(remnant.marker.label)")
    }
}
