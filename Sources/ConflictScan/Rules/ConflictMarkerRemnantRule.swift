import ShipcheckCore

/// An opener, base or closer marker left behind without the rest of its block.
package enum ConflictMarkerRemnantRule: ConflictContentRule {
    package static let description = RuleDescription(
        id: "conflict-marker-remnant",
        summary: "A conflict opener, base or closer marker is left over outside a complete block.",
        rationale: """
            A hand-resolved conflict often keeps one marker: the `>>>>>>> feature` line below the \
            kept code, or an opener whose separator and closer were deleted. Those lines are as \
            fatal to a build (or as embarrassing in a shipped file) as a whole block. Each \
            `<<<<<<<`, `|||||||` or `>>>>>>>` line of the marker size that is not part of a complete \
            block is one finding. A lone `=======` line is never reported: it is a Markdown or \
            reStructuredText underline far more often than a conflict. Silence one on purpose with \
            `shipcheck:ignore conflict-marker-remnant -- reason` (or `conflict-marker`) in a comment on \
            the line above it or after it (docs/suppressions.md).
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                let retries = 5
                ↓>>>>>>> feature/retry
                """),
            RuleExample(
                """
                ↓<<<<<<< HEAD
                let retries = 3
                """),
            RuleExample(
                """
                let retries = 3
                ↓||||||| merged common ancestors
                let retries = 1
                """),
            RuleExample("↓>>>>>>> main\r\n")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                Chapter
                =======
                """, path: "README.md"),
            RuleExample(
                """
                >>>>>>>> eight characters
                x >>>>>>> not at the start
                """),
            RuleExample(
                """
                >>>>>>> feature  // shipcheck:ignore conflict-marker-remnant -- quoted from a merge tool's docs
                """)
        ]
    )

    /// Directives written before the suppression grammar still silence, with a note to rewrite them;
    /// a `conflict-marker` directive silences a remnant too (one id for "a conflict shown on purpose").
    package static let suppression = SuppressionPolicy(
        alsoSilencedBy: [ConflictMarkerRule.id], acceptsDeprecatedForms: true)

    static func findings(in content: ContentConflicts, path: String) -> [Finding] {
        content.remnants.map { finding($0, path: path) }
    }

    static func finding(_ remnant: ConflictRemnant, path: String) -> Finding {
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
            ruleID: id, severity: description.defaultSeverity, message: message,
            location: .source(
                SourceLocation(
                    path: path, line: remnant.marker.line, column: 1,
                    endLine: remnant.marker.line, endColumn: remnant.marker.byteLength + 1)),
            snippet: remnant.marker.text,
            fixHint: "finish resolving the conflict: delete the marker line and check the code around it",
            identity: "\(remnant.kind.rawValue)\u{1F}\(remnant.marker.label)")
    }
}
