/// A rule's documentation, which is also its test suite (as in SwiftLint): every triggering
/// example must produce exactly one finding per `↓` marker, at the marker's place and with its
/// severity (`RuleExample`), every non-triggering example none.
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

/// A snippet of input for a rule. In triggering examples, each `↓` marks one finding: where it
/// points and how severe it is. The markers are removed before the input is scanned.
///
/// - Count: one marker, one finding; a triggering example without a marker is an error.
/// - Place: in a source-like example (Swift, a project file, a git listing) the marker stands at
///   the finding's (line, column). In a line-oriented artifact example (the texts of
///   `BinaryContents(example:)`, `BundleContents(example:)`, `AndroidArtifact(example:)`) it
///   starts the line that declares what the finding is about: its parser records, for each line
///   that creates something (a type, a library, a string, a file, a profile, a manifest…), the
///   place a finding about it names (`ExamplePlace`), and the finding must name the place of
///   the marked line.
/// - Severity: a plain `↓` is the rule's default severity; `↓«note»`, `↓«warning»` or
///   `↓«error»` names another (guillemets appear in no example language, so the marker cannot
///   be read as text). Any other name in guillemets is an error.
package struct RuleExample: Sendable, Hashable {
    package static let marker: Character = "↓"

    /// One `↓` of an example: where it stands (1-based line and column of the unmarked text,
    /// columns counted in UTF-8 bytes like every location shipcheck reports) and the severity
    /// it names (nil: the rule's default).
    package struct Marker: Sendable, Hashable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var severity: Severity?

        package init(line: Int, column: Int, severity: Severity? = nil) {
            self.line = line
            self.column = column
            self.severity = severity
        }

        package var description: String { "\(line):\(column)" + (severity.map { " \($0.rawValue)" } ?? "") }
    }

    /// A marker naming no severity shipcheck has (`↓«fatal»`), or a `«` left open.
    package struct MarkerError: Error, Sendable, CustomStringConvertible {
        package var line: Int
        package var text: String
        package var description: String {
            "line \(line): '\(text)' is no severity marker (↓«note», ↓«warning», ↓«error»)"
        }
    }

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

    /// The text with markers (and the severities they name) removed, and each marker.
    package var unmarked: (text: String, markers: [Marker]) {
        get throws(MarkerError) {
            var output = ""
            var markers: [Marker] = []
            var line = 1, column = 1
            var rest = Substring(text)
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == RuleExample.marker {
                    var severity: Severity?
                    if rest.first == "«" {
                        guard let close = rest.firstIndex(of: "»"),
                            let named = Severity(rawValue: String(rest[rest.index(after: rest.startIndex)..<close]))
                        else {
                            throw MarkerError(line: line, text: "↓" + String(rest.prefix { $0 != "\n" && $0 != "»" }))
                        }
                        severity = named
                        rest = rest[rest.index(after: close)...]
                    }
                    markers.append(Marker(line: line, column: column, severity: severity))
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
}

/// What one line of a line-oriented example text declares, named as a finding about it names its
/// place: the example parsers record one for each line that creates something, and the example
/// verifier takes a finding to be about the line whose place it has. Only the parts set here are
/// compared; a path is relative to the artifact's root ("" is the root itself).
package struct ExamplePlace: Sendable, Hashable {
    package var line: Int
    /// A path inside the artifact: a finding at this path, or at a folder holding it, is about
    /// the line (a finding at the root only about a line declaring the root).
    package var path: String?
    package var section: String?
    package var symbol: String?
    package var offset: UInt64?

    package init(line: Int, path: String? = nil, section: String? = nil, symbol: String? = nil, offset: UInt64? = nil) {
        self.line = line
        self.path = path
        self.section = section
        self.symbol = symbol
        self.offset = offset
    }

    /// Whether a finding at `location` in the artifact at `root` is about this line.
    package func isPlace(of location: Location, root: String) -> Bool {
        if let path {
            let inner = Location.path(location.path, relativeTo: root)
            let isRoot = inner == root || inner.isEmpty
            guard isRoot ? path.isEmpty : (path == inner || path.hasPrefix(inner + "/")) else { return false }
        }
        guard section != nil || symbol != nil || offset != nil else { return path != nil }
        guard case .binary(let binary) = location else { return false }
        return (section == nil || section == binary.section) && (symbol == nil || symbol == binary.symbol)
            && (offset == nil || offset == binary.offset)
    }
}

/// The places an example parser recorded, and the root the artifact's paths are under.
package struct ExamplePlaces: Sendable, Hashable {
    package var root: String
    package var places: [ExamplePlace]

    package init(root: String, places: [ExamplePlace] = []) {
        self.root = root
        self.places = places
    }

    /// The lines a finding at `location` is about.
    package func lines(of location: Location) -> [Int] {
        places.filter { $0.isPlace(of: location, root: root) }.map(\.line)
    }
}
