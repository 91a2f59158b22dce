/// Ready-made queries for `shipcheck query add --preset NAME`.
package enum QueryPresets {
    package static let all: [SavedQuery] = [
        SavedQuery(
            name: "merge-conflicts",
            description: "Leftover merge-conflict marker lines (<<<<<<<, |||||||, >>>>>>>)",
            // git's own rule: the marker character exactly seven times at the start of a line,
            // then whitespace or the end of the line. A bare ======= is left out: it is also a
            // Markdown / RST underline, and every real conflict has an opener or closer.
            // One alternative per marker so each has a literal to prefilter on.
            pattern: #"^<{7}(?=\s|$)|^\|{7}(?=\s|$)|^>{7}(?=\s|$)"#,
            kind: .regex, expectNone: true),
        SavedQuery(
            name: "fixme",
            description: "FIXME, TODO and XXX notes left in the code",
            pattern: #"\b(?:FIXME|TODO|XXX)\b"#,
            kind: .regex),
        SavedQuery(
            name: "print-debugging",
            description: "print / debugPrint / dump / NSLog calls left from debugging",
            pattern: #"(?<![\w.])(?:print|debugPrint|dump|NSLog)\("#,
            kind: .regex, include: ["*.swift"]),
        SavedQuery(
            name: "force-try",
            description: "try! that crashes the app when the call throws",
            pattern: "try!",
            kind: .literal, include: ["*.swift"]),
        SavedQuery(
            name: "focused-tests",
            description: "Tests narrowed or disabled by hand (.disabled, XCTSkip, fdescribe / fit)",
            pattern: #"\.disabled\(|XCTSkip\(|\bf(?:describe|it|context)\("#,
            kind: .regex)
    ]

    package static func named(_ name: String) -> SavedQuery? { all.first { $0.name == name } }
}
