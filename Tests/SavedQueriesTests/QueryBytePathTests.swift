import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SavedQueries

/// `query run` makes each match's fingerprint, state line and report line from the file's
/// bytes, with no string per match. These tests hold that path to the findings-based one it
/// replaced (`Fingerprinter.assign` over findings, the state's string encoder, the report's
/// string functions) and to state files written before it.
@Suite struct QueryBytePathTests {
    /// Lines a byte path gets wrong first: whitespace runs and tabs, backslashes, non-ASCII,
    /// a combining mark after a space, a bare CR, invalid UTF-8, lines near and over the
    /// report's clipping length, and repeats (occurrences count per equal line).
    static let awkwardLines: [[UInt8]] = [
        Array("    // needle:  two   spaces\tand a tab".utf8),
        Array("needle".utf8),
        Array("needle".utf8),
        Array("  needle x".utf8),
        Array("needle    x".utf8),
        Array("let path = \"C:\\\\needle\\\\dir\"".utf8),
        Array("let café = 1 // needle é".utf8),
        Array("a \u{301}needle  combining".utf8),
        Array("a\rneedle after a bare CR".utf8),
        [0xFF] + Array("needle after an invalid byte".utf8),
        Array("\tneedle\t\ttabs\t".utf8),
        Array((String(repeating: "x", count: 299) + "\tneedle\tz").utf8),
        Array((String(repeating: "y", count: 320) + " needle").utf8),
        Array((String(repeating: "é", count: 160) + " needle").utf8),
        Array("   needle   ".utf8)
    ]

    /// The lines as one file, and each line's `needle` as a byte range of it.
    static func awkwardFile() -> (bytes: [UInt8], ranges: [Range<Int>]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        let needle = Array("needle".utf8)
        for line in awkwardLines {
            let start = (0...(line.count - needle.count)).first { Array(line[$0..<($0 + needle.count)]) == needle }!
            ranges.append((bytes.count + start)..<(bytes.count + start + needle.count))
            bytes += line + [UInt8(ascii: "\n")]
        }
        return (bytes, ranges)
    }

    let query = ScopedQuery(
        query: SavedQuery(name: "needle", pattern: "needle"), scope: .repository, storePath: "q.yml")

    @Test func fingerprintsAreTheFingerprintersForTheFindingsIdentity() throws {
        let (bytes, ranges) = Self.awkwardFile()
        let context = QueryRefresh.Context(query: query, keepsFindings: true)
        let file = bytes.withByteView {
            context.file(
                path: "dir/a file.swift", digest: PathDigest("dir/a file.swift"), key: nil, bytes: $0, ranges: ranges,
                text: nil)
        }
        #expect(file.matchCount == Self.awkwardLines.count)
        var refingerprinted = file.findings
        for index in refingerprinted.indices { refingerprinted[index].fingerprint = "" }
        Fingerprinter.assign(&refingerprinted)
        #expect(file.findings.map(\.fingerprint) == refingerprinted.map(\.fingerprint))
        #expect(Set(file.findings.map(\.fingerprint)).count == file.findings.count)
        // The audit's path, from matches with their line text, gives the same.
        let matches = bytes.withByteView { buffer in
            var lines = LineCursor()
            return ranges.map { range in
                let place = MatchPlace(range, in: buffer, lines: &lines)
                return QueryMatch(
                    line: place.line, column: place.column, endColumn: place.endColumn,
                    lineText: buffer.string(place.text))
            }
        }
        #expect(context.file(path: "dir/a file.swift", matches: matches).findings == file.findings)
    }

    @Test func stateLinesAreTheStringEncodersLines() {
        let (bytes, ranges) = Self.awkwardFile()
        let path = "dir/tab\there\\.swift"
        let context = QueryRefresh.Context(query: query, keepsFindings: true)
        let file = bytes.withByteView {
            context.file(path: path, digest: PathDigest(path), key: nil, bytes: $0, ranges: ranges, text: nil)
        }
        var expected: [UInt8] = []
        for finding in file.findings {
            StateFileFormat.encodeEntry(
                fingerprint: finding.fingerprint, line: finding.location.line ?? 0, path: path,
                lineText: finding.snippet ?? "", into: &expected)
        }
        #expect(String(decoding: file.state, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test(arguments: [false, true])
    func reportLinesAreTheStringFunctionsLines(color: Bool) {
        let (bytes, ranges) = Self.awkwardFile()
        let context = QueryRefresh.Context(query: query, keepsFindings: true)
        for heading in [false, true] {
            let layout = QueryRunText.Layout(query: query, color: color, heading: heading)
            let file = bytes.withByteView {
                context.file(
                    path: "a\tb.swift", digest: PathDigest("a\tb.swift"), key: nil, bytes: $0, ranges: ranges,
                    text: layout)
            }
            var expected = heading ? "  " + TextColour.path.paint("a\\tb.swift", if: color) + "\n" : ""
            for finding in file.findings {
                guard case .source(let location) = finding.location else { continue }
                if heading {
                    let text = QueryRunText.highlighted(
                        finding.snippet ?? "", from: location.column, to: location.endColumn ?? location.column,
                        color: color)
                    expected +=
                        "    \(TextColour.place.paint("\(location.line):\(location.column)", if: color))  \(text)\n"
                } else {
                    expected +=
                        "a\\tb.swift:\(location.line):\(location.column):"
                        + Self.searchResultText(finding, color: color) + "\n"
                }
            }
            #expect(String(decoding: file.text, as: UTF8.self) == expected, "heading: \(heading)")
        }
    }

    /// A match's line as the one-line layout shows it: the line as it is, the match painted when
    /// colouring; a line over 300 bytes cut at a character boundary before the 301st, then `…`.
    static func searchResultText(_ finding: Finding, color: Bool) -> String {
        let line = finding.snippet ?? ""
        let cut: [String: String] = [
            String(repeating: "x", count: 299) + "\tneedle\tz": String(repeating: "x", count: 299) + "\t…",
            String(repeating: "y", count: 320) + " needle": String(repeating: "y", count: 300) + "…",
            String(repeating: "é", count: 160) + " needle": String(repeating: "é", count: 150) + "…"
        ]
        if let shown = cut[line] { return shown }
        #expect(line.utf8.count <= 300)
        guard color, case .source(let location) = finding.location, let end = location.endColumn else { return line }
        let bytes = awkwardLines[location.line - 1]  // the line's own bytes (a snippet replaces an invalid byte)
        return String(decoding: bytes[..<(location.column - 1)], as: UTF8.self) + "\u{1B}[1;31m"
            + String(decoding: bytes[(location.column - 1)..<(end - 1)], as: UTF8.self) + "\u{1B}[0m"
            + String(decoding: bytes[(end - 1)...], as: UTF8.self)
    }

    /// `Tests/Fixtures/query-state`: a tree, its queries, and the states `query run` wrote for
    /// it before fingerprints were made from bytes (shipcheck at 281be8e), in format 1 (entry
    /// lines in the state file itself). Run again on the same tree, nothing is new or gone, and
    /// the new states are format 2 manifests whose blocks hold the same entries.
    @Test(arguments: [false, true])
    func statesWrittenBeforeTheBytePathStillCompare(streamed: Bool) throws {
        let fixture = Repository.path("Tests/Fixtures/query-state")
        let directory = TemporaryDirectory()
        let stateFolder = directory.path + "/.shipcheck/state/queries/repo"
        try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: fixture + "/tree") {
            try FileManager.default.copyItem(atPath: fixture + "/tree/" + item, toPath: directory.path + "/" + item)
        }
        try FileManager.default.copyItem(
            atPath: fixture + "/queries.yml", toPath: directory.path + "/.shipcheck/queries.yml")
        let states = try FileManager.default.contentsOfDirectory(atPath: fixture + "/states")
        for state in states {
            try FileManager.default.copyItem(atPath: fixture + "/states/" + state, toPath: stateFolder + "/" + state)
        }

        let queries = try QueryStore.repository(root: directory.path, configuration: Configuration()).loadScoped()
        #expect(queries.count == states.count)
        let report = directory.path + "/report.txt"
        let output = try AtomicFile.Writer(path: report)
        let outcome = Frontend.runQueries(
            queries, root: directory.path, configuration: Configuration(), timeout: nil, failingSeverity: .error,
            text: streamed ? (output.output, false, true) : nil)
        #expect(outcome.inputErrors.isEmpty)
        for refresh in outcome.refreshes {
            #expect(refresh.comparable, "\(refresh.query.query.name)")
            #expect(
                refresh.matchCount > 0 && refresh.new.isEmpty && refresh.gone.isEmpty, "\(refresh.query.query.name)")
        }
        for state in states {
            let manifest = try String(contentsOfFile: stateFolder + "/" + state, encoding: .utf8).split(separator: "\n")
            let header = try #require(StateFileFormat.decodeHeader(Array(manifest[0].utf8)))
            #expect(header.format == 2, "\(state)")
            var blocks = ""
            for line in manifest.dropFirst() {
                let block = try #require(Array(line.utf8).withByteView { StateFileFormat.decodeBlock($0) })
                let segment = try #require(
                    FileHandle(
                        forReadingAtPath: stateFolder + "/" + state + ".d/" + (header.segments ?? [])[block.segment]))
                try segment.seek(toOffset: UInt64(block.offset))
                blocks += String(decoding: try #require(try segment.read(upToCount: block.length)), as: UTF8.self)
            }
            let entries = try String(contentsOfFile: fixture + "/states/" + state, encoding: .utf8).split(
                separator: "\n"
            ).dropFirst()
            #expect(blocks.split(separator: "\n") == Array(entries), "\(state)")
        }
    }
}
