import AndroidArtifacts
import BinaryInspect
import ScanEngine
import ShipcheckCore

/// The text form of a previous-release rule's examples: two artifact texts, the previous
/// release's and the new one's, in the form of their family's examples
/// (`BundleContents(example:)`, `AndroidArtifact(example:)`), after a header:
///
///     apple|android                  the family (first line)
///     budget total=5%|download=2 MB|part=NAME:BUDGET   size budgets (rules.previous-size-budget)
///     …the previous release…
///     ---
///     …the new release…
///
/// Either side may also hold `size PATH DOWNLOAD INSTALL` lines: a file's sizes in bytes (the
/// example forms state no sizes). The new side's lines declare the places findings are about;
/// markers belong there. A line the header or a side does not read is an error.
package struct ReleasePairExample: Sendable {
    package var old: ReleaseFacts
    package var new: ReleaseFacts
    /// The places the new side's lines declare, by their line in the whole text.
    package var places: ExamplePlaces
    package var budgets = SizeBudgetRule.Options()

    package init(_ text: String) throws(InputError) {
        let parts = try Parts(text)
        let oldSide = try Self.side(parts.old, family: parts.family, root: "Previous")
        let newSide = try Self.side(parts.new, family: parts.family, root: "Example")
        old = oldSide.facts
        new = newSide.facts
        places = newSide.places
        budgets = parts.budgets
    }

    /// A pair's text taken apart: the family, the budgets, and each side's lines with their
    /// place in the whole text (what a test that writes each side as a real artifact reads).
    package struct Parts: Sendable {
        package var family: String
        package var budgets = SizeBudgetRule.Options()
        package var old: Side
        package var new: Side

        /// One side's lines and the 0-based index of its first line in the whole text.
        package struct Side: Sendable {
            package var lines: [String]
            package var firstLine: Int

            package init(lines: [String], firstLine: Int) {
                self.lines = lines
                self.firstLine = firstLine
            }

            /// The side's artifact text, without the `size` lines (their files stay, as `file` lines).
            package var artifactText: String {
                lines.map { line in
                    let fields = line.split(separator: " ")
                    return fields.first == "size" && fields.count > 1 ? "file \(fields[1])" : line
                }.joined(separator: "\n")
            }

            /// Whether the side states sizes, which a written artifact cannot keep.
            package var statesSizes: Bool { lines.contains { $0.hasPrefix("size ") } }
        }

        package init(_ text: String) throws(InputError) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let family = lines.first, family == "apple" || family == "android" else {
                throw InputError(path: "example", line: 1, message: "the first line names the family: apple or android")
            }
            self.family = family
            var index = 1
            while index < lines.count, lines[index].hasPrefix("budget ") {
                try ReleasePairExample.readBudget(
                    String(lines[index].dropFirst("budget ".count)), into: &budgets,
                    bad: ExampleLine(number: index + 1, text: lines[index][...]).error)
                index += 1
            }
            guard let separator = lines.firstIndex(of: "---"), separator >= index else {
                throw InputError(path: "example", message: "no --- line between the previous and the new release")
            }
            old = Side(lines: Array(lines[index..<separator]), firstLine: index)
            new = Side(lines: Array(lines[(separator + 1)...]), firstLine: separator + 1)
        }
    }

    /// One side: its artifact text read by the family's example parser, its facts, then its
    /// sizes; places renumbered to the whole text's lines.
    private static func side(_ side: Parts.Side, family: String, root: String) throws(InputError) -> (
        facts: ReleaseFacts, places: ExamplePlaces
    ) {
        var sizes: [ReleaseFacts.Entry] = []
        for (index, line) in side.lines.enumerated() where line.hasPrefix("size ") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 4, let download = UInt64(fields[2]), let install = UInt64(fields[3]) else {
                throw ExampleLine(number: side.firstLine + index + 1, text: line[...]).error(
                    "size PATH DOWNLOAD INSTALL expected")
            }
            sizes.append(ReleaseFacts.Entry(path: fields[1], download: download, install: install))
        }
        var facts: ReleaseFacts
        var places: ExamplePlaces
        if family == "apple" {
            let (contents, read) = try BundleContents.example(side.artifactText, root: "\(root).ipa")
            facts = ReleaseFacts(apple: contents)
            places = read
        } else {
            var (artifact, read) = try AndroidArtifact.example(side.artifactText)
            artifact.root = root + "." + (artifact.kind.isZip ? artifact.kind.rawValue : "so")
            facts = ReleaseFacts(android: artifact)
            places = ExamplePlaces(root: artifact.root, places: read.places)
        }
        for entry in sizes {
            facts.entries.removeAll { $0.path == entry.path }
            facts.entries.append(entry)
        }
        places.places = places.places.map { place in
            var moved = place
            moved.line += side.firstLine
            return moved
        }
        return (facts, places)
    }

    fileprivate static func readBudget(
        _ text: String, into budgets: inout SizeBudgetRule.Options, bad: (String) -> InputError
    ) throws(InputError) {
        guard let equals = text.firstIndex(of: "=") else { throw bad("budget KEY=VALUE expected") }
        let key = text[..<equals]
        let value = String(text[text.index(after: equals)...])
        switch key {
        case "total", "download":
            guard let budget = SizeBudgetRule.Budget(value) else { throw bad("not a size budget") }
            if key == "total" { budgets.total = budget } else { budgets.download = budget }
        case "part":
            guard let colon = value.lastIndex(of: ":"),
                let budget = SizeBudgetRule.Budget(String(value[value.index(after: colon)...]))
            else { throw bad("part=NAME:BUDGET expected") }
            budgets.parts[String(value[..<colon])] = budget
        default: throw bad("budget total=, download= or part= expected")
        }
    }
}
