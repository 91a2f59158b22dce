import ShipcheckCore

/// Prints a comparison section by section (each only when something in it changed) through a
/// layout: plain text for a terminal or a log, Markdown for a pull-request comment or a job
/// summary. The sections and their order are one; only the layout differs.
package struct ComparisonPrinter {
    package enum Layout: Sendable {
        case text, markdown
    }

    let layout: Layout
    private var lines: [String] = []

    package init(layout: Layout) { self.layout = layout }

    /// The comparison's sections (the caller prints the findings under them).
    package static func render(_ comparison: ReleaseComparison, layout: Layout) -> String {
        var printer = ComparisonPrinter(layout: layout)
        printer.print(comparison)
        return printer.lines.joined(separator: "\n") + "\n"
    }

    /// The findings of the previous release the new one no longer has.
    package static func gone(_ findings: [Finding], layout: Layout) -> String {
        var printer = ComparisonPrinter(layout: layout)
        printer.heading("Findings gone since the previous release (\(findings.count))")
        printer.bullets(findings.map { "\($0.severity.rawValue) [\($0.ruleID)] \($0.message)" })
        return printer.lines.joined(separator: "\n") + "\n"
    }

    private mutating func print(_ comparison: ReleaseComparison) {
        let old = comparison.old
        let new = comparison.new
        title("shipcheck diff: \(old.root) → \(new.root) (\(new.family.rawValue) \(new.kind))")
        if !comparison.identity.isEmpty {
            heading("Identity and version")
            table(
                ["", "previous", "new"],
                comparison.identity.map { [$0.name, $0.old ?? "—", $0.new ?? "—"] })
        }
        facts("Architectures and ABIs", comparison.architectures)
        if !comparison.images.isEmpty {
            // An image is named with the SDKs on Apple's list whose code it holds, as the
            // pre-flight rules find them (by the framework's name or by its content).
            func named(_ key: String, in facts: ReleaseFacts) -> String {
                let listed = Set(facts.sdks.filter(\.isListed).map(\.name))
                let sdks = (facts.images.first { $0.key == key }?.sdks ?? []).filter(listed.contains)
                return sdks.isEmpty ? key : "\(key): \(sdks.joined(separator: ", ")) (a listed SDK)"
            }
            heading("Images")
            bullets(
                comparison.images.added.map { "added: " + named($0, in: new) }
                    + comparison.images.removed.map { "removed: " + named($0, in: old) })
        }
        facts("Libraries loaded", comparison.libraries)
        if !comparison.sdks.isEmpty || !comparison.sdkVersions.isEmpty {
            heading("SDKs")
            let versions = Dictionary(new.sdks.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
            let oldVersions = Dictionary(
                old.sdks.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
            bullets(
                comparison.sdks.added.map { "added: \($0)\((versions[$0] ?? nil).map { " \($0)" } ?? "")" }
                    + comparison.sdks.removed.map { "removed: \($0)\((oldVersions[$0] ?? nil).map { " \($0)" } ?? "")" }
                    + comparison.sdkVersions.map { "\($0.name): \($0.old ?? "—") → \($0.new ?? "—")" })
        }
        if !comparison.declarations.isEmpty {
            heading("Permissions and declarations")
            for change in comparison.declarations {
                bullets(
                    change.added.map { "\(change.name) added: \($0)" }
                        + change.removed.map { "\(change.name) removed: \($0)" })
            }
        }
        if comparison.total.isChanged {
            heading("Size")
            table(
                [
                    "part", "download (previous)", "download (new)", "change", "install (previous)", "install (new)",
                    "change"
                ],
                (comparison.parts.filter(\.isChanged) + [comparison.total]).map(sizeCells))
        }
        if !comparison.changedImages.isEmpty {
            heading("Segments and sections of changed images")
            for image in comparison.changedImages {
                subheading(image.key)
                table(
                    ["segment or section", "previous", "new", "change"],
                    (image.segments + image.sections).map { row in
                        [
                            row.name, ByteCount.text(row.old.install), ByteCount.text(row.new.install),
                            ByteCount.signed(row.installGrowth)
                        ]
                    })
            }
        }
        if !comparison.largestGrowth.isEmpty {
            heading("Files added or grown most (install size)")
            table(
                ["file", "previous", "new", "change"],
                comparison.largestGrowth.map { row in
                    [
                        row.name, row.old.install == 0 ? "—" : ByteCount.text(row.old.install),
                        ByteCount.text(row.new.install), ByteCount.signed(row.installGrowth)
                    ]
                })
        }
        if !comparison.files.isEmpty {
            paragraph("\(comparison.files.added.count) files added, \(comparison.files.removed.count) removed.")
        }
    }

    private func sizeCells(_ row: SizeRow) -> [String] {
        [
            row.name, ByteCount.text(row.old.download), ByteCount.text(row.new.download),
            ByteCount.signed(row.downloadGrowth), ByteCount.text(row.old.install), ByteCount.text(row.new.install),
            ByteCount.signed(row.installGrowth)
        ]
    }

    private mutating func facts(_ title: String, _ change: FactChange) {
        guard !change.isEmpty else { return }
        heading(title)
        bullets(change.added.map { "added: \($0)" } + change.removed.map { "removed: \($0)" })
    }

    // MARK: Layout

    private mutating func title(_ text: String) {
        lines.append(layout == .markdown ? "### \(text)" : text)
    }

    private mutating func heading(_ text: String) {
        lines.append("")
        lines.append(layout == .markdown ? "#### \(text)" : text)
    }

    private mutating func subheading(_ text: String) {
        lines.append(layout == .markdown ? "\n**\(MarkdownReporter.escaped(text))**\n" : "  \(text)")
    }

    private mutating func paragraph(_ text: String) {
        lines.append("")
        lines.append(text)
    }

    private mutating func bullets(_ items: [String]) {
        lines += items.map { layout == .markdown ? "- \(MarkdownReporter.escaped($0))" : "  \($0)" }
    }

    /// A table: Markdown's pipes, or `TextTable`'s padded columns.
    private mutating func table(_ header: [String], _ rows: [[String]]) {
        switch layout {
        case .markdown:
            lines.append("")
            lines.append("| " + header.map(MarkdownReporter.escaped).joined(separator: " | ") + " |")
            lines.append("|" + header.indices.map { $0 == 0 ? " --- |" : " ---: |" }.joined())
            lines += rows.map { "| " + $0.map(MarkdownReporter.escaped).joined(separator: " | ") + " |" }
        case .text:
            lines += TextTable.lines([header] + rows).map { "    " + $0.trimmingTrailingSpaces() }
        }
    }

}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
