import ShipcheckCore

/// A complete conflict block left in a file.
package enum ConflictMarkerRule: ConflictContentRule {
    package static let description = RuleDescription(
        id: "conflict-marker",
        summary: "A merge-conflict block (<<<<<<< … ======= … >>>>>>>) is still in the file.",
        rationale: """
            git writes a conflict block when it cannot merge two changes: an opener `<<<<<<<` with \
            our label, an optional `|||||||` base section (diff3, zdiff3), a `=======` separator \
            and a `>>>>>>>` closer with their label. Each marker is the marker character repeated \
            exactly the marker size (7, or the path's `conflict-marker-size` attribute) at the start \
            of a line, then whitespace or the end of the line; LF and CRLF files alike. A block left \
            in source breaks the build at best and ships both versions of a config or resource at \
            worst. One finding per block, from the opener line to the closer line; longer markers \
            nested inside (criss-cross merges) belong to the outer block. Silence a block shown on \
            purpose with `shipcheck:ignore conflict-marker -- reason` in a comment on the line above \
            the opener or after it (docs/suppressions.md), or list the path under `conflicts.allow` \
            in `.shipcheck.yml`.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                let timeout = 30
                ↓<<<<<<< HEAD
                let retries = 3
                =======
                let retries = 5
                >>>>>>> feature/retry
                """),
            RuleExample(
                """
                ↓<<<<<<< HEAD
                let retries = 3
                ||||||| 1a2b3c4
                let retries = 1
                =======
                let retries = 5
                >>>>>>> 38fbfb3 (Retry more)
                """),
            RuleExample(
                """
                ↓<<<<<<< Updated upstream
                =======
                let debugMenu = true
                >>>>>>> Stashed changes
                """),
            RuleExample("↓<<<<<<< HEAD\r\nlet a = 1\r\n=======\r\nlet a = 2\r\n>>>>>>> main\r\n"),
            RuleExample(
                """
                ↓<<<<<<< HEAD
                ours
                ||||||| merged common ancestors
                <<<<<<<<< Temporary merge branch 1
                one
                =========
                two
                >>>>>>>>> Temporary merge branch 2
                =======
                theirs
                >>>>>>> feature
                """),
            RuleExample(
                """
                Title
                =====
                ↓<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<< HEAD
                Ours
                ================================
                Theirs
                >>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>> feature
                """, path: "Docs/guide.rst", companions: [".gitattributes": "*.rst conflict-marker-size=32\n"])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                Release notes
                =======

                Heading
                =======
                """, path: "NOTES.md"),
            RuleExample(
                """
                let banner = "<<<<<<< HEAD"  // a string, not at the start of a line
                // <<<<<<< not at the start of the line either
                """),
            RuleExample(
                """
                <<<<<<<< eight is not seven
                ========
                >>>>>>>> feature
                """),
            RuleExample(
                """
                <<<<<<<HEAD
                =======
                >>>>>>>feature
                """),
            RuleExample(
                """
                // shipcheck:ignore conflict-marker -- documents what a conflict looks like
                <<<<<<< HEAD
                ours
                =======
                theirs
                >>>>>>> feature
                """),
            RuleExample(
                """
                <<<<<<< HEAD
                =======
                >>>>>>> feature
                """, path: "Docs/guide.rst", companions: [".gitattributes": "*.rst conflict-marker-size=32\n"])
        ]
    )

    /// Directives written before the suppression grammar still silence, with a note to rewrite them.
    package static let suppression = SuppressionPolicy(acceptsDeprecatedForms: true)

    static func findings(in content: ContentConflicts, path: String) -> [Finding] {
        content.blocks.map { finding($0, path: path) }
    }

    static func finding(_ block: ConflictBlock, path: String) -> Finding {
        let ours = block.opener.label.isEmpty ? "ours" : "'\(block.opener.label)'"
        let theirs = block.closer.label.isEmpty ? "theirs" : "'\(block.closer.label)'"
        var message =
            "unresolved merge conflict between \(ours) and \(theirs) (lines \(block.opener.line)–\(block.closer.line))"
        if block.base != nil { message += ", with a base section" }
        if block.nestedBlockCount > 0 {
            message +=
                ", holding \(block.nestedBlockCount) nested block\(block.nestedBlockCount == 1 ? "" : "s") from a criss-cross merge"
        }
        if block.markerSize != ContentScanner.defaultMarkerSize { message += "; marker size \(block.markerSize)" }
        let markers = [block.opener, block.base, block.separator, block.closer].compactMap { $0 }
        return Finding(
            ruleID: id, severity: description.defaultSeverity, message: message,
            location: .source(
                SourceLocation(
                    path: path, line: block.opener.line, column: 1,
                    endLine: block.closer.line, endColumn: block.closer.byteLength + 1)),
            snippet: markers.map(\.text).joined(separator: "\n"),
            fixHint: "keep the right lines from each side, delete the marker lines, then `git add` the file",
            identity: markers.map(\.label).joined(separator: "\u{1F}"))
    }
}
