/// A rule's documentation, which is also its test suite (as in SwiftLint): every triggering
/// example must produce a finding at each `↓` marker, every non-triggering example none.
package struct RuleDescription: Sendable, Hashable {
    package var id: String
    /// One line, shown in listings and as SARIF `shortDescription`.
    package var summary: String
    /// Why the rule exists and what it checks, shown as SARIF `fullDescription` / help.
    package var rationale: String
    package var defaultSeverity: Severity
    /// The App Store rejection the rule catches before upload — its ITMS code and Apple's
    /// wording (`ITMS-90087: Unsupported Architectures`) — or the Apple rule it stands for.
    package var storeRejection: String?
    /// How to fix what the rule finds, in general (each finding's fix hint is specific).
    package var fix: String?
    package var triggeringExamples: [RuleExample]
    package var nonTriggeringExamples: [RuleExample]

    package init(
        id: String,
        summary: String,
        rationale: String,
        defaultSeverity: Severity,
        storeRejection: String? = nil,
        fix: String? = nil,
        triggeringExamples: [RuleExample] = [],
        nonTriggeringExamples: [RuleExample] = []
    ) {
        self.id = id
        self.summary = summary
        self.rationale = rationale
        self.defaultSeverity = defaultSeverity
        self.storeRejection = storeRejection
        self.fix = fix
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }

    /// The rationale, then what the rule pre-empts and how to fix it (SARIF's help text).
    package var help: String {
        [rationale, storeRejection.map { "Pre-empts \($0)." }, fix.map { "Fix: \($0)" }].compactMap { $0 }.joined(
            separator: "\n\n")
    }
}

/// A snippet of input for a rule. In triggering examples, `↓` marks where each finding points;
/// the marker is removed before the input is scanned.
package struct RuleExample: Sendable, Hashable {
    package static let marker: Character = "↓"

    package var text: String
    /// The path the example pretends to live at (matters for path-based rules).
    package var path: String
    /// Extra files the example needs beside it (for example a `project.pbxproj`), path → text.
    package var companions: [String: String]

    package init(_ text: String, path: String = "Example.swift", companions: [String: String] = [:]) {
        self.text = text
        self.path = path
        self.companions = companions
    }

    /// The text with markers removed, and the 1-based (line, column) of each marker,
    /// columns counted in UTF-8 bytes like every location shipcheck reports.
    package var unmarked: (text: String, markers: [(line: Int, column: Int)]) {
        var output = ""
        var markers: [(line: Int, column: Int)] = []
        var line = 1, column = 1
        for character in text {
            if character == RuleExample.marker {
                markers.append((line, column))
                continue
            }
            output.append(character)
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.utf8.count
            }
        }
        return (output, markers)
    }
}
