import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// What `diff` prints in each format, chosen in the frontend (the executable writes it).
@Suite struct DiffFrontendTests {
    static let clean = Repository.path("Tests/Fixtures/android/Clean.apk")
    static let planted = Repository.path("Tests/Fixtures/android/Planted.apk")

    static func text(_ old: String, _ new: String, _ format: ReportFormat, heading: Bool = false) -> Frontend.DiffText?
    {
        let outcome = Frontend.diff(old: old, new: new, configuration: Configuration(), failingSeverity: .error)
        return Frontend.diffText(
            outcome, old: old, new: new, format: format, color: false, heading: heading, verbose: false)
    }

    /// The report-only formats, and a side that cannot be read, print the report as every
    /// subcommand does: no text of diff's own.
    @Test func reportOnlyFormatsAndAnUnreadableSideHaveNoText() {
        for format in [ReportFormat.sarif, .junit, .github, .gitlab] {
            #expect(Self.text(Self.clean, Self.planted, format) == nil, "\(format)")
        }
        #expect(Self.text(Self.clean, "/nonexistent/App.apk", .text) == nil)
    }

    @Test func theSameReleaseIsOneLineButInJSON() throws {
        let line = try #require(Self.text(Self.clean, Self.clean, .markdown))
        #expect(
            line.output
                == "shipcheck diff: \(Self.clean) and \(Self.clean) are the same release: no differences in what shipcheck compares\n"
        )
        #expect(line.summary == nil)
        let json = try #require(Self.text(Self.clean, Self.clean, .json))
        #expect(json.output.hasPrefix("{") && json.output.contains("\"findings\""))
    }

    /// Text: the comparison, then the report; the counts go to standard error only when the
    /// report has no headings (as every text report's do).
    @Test func textIsTheComparisonThenTheReport() throws {
        let plain = try #require(Self.text(Self.clean, Self.planted, .text))
        let summary = try #require(plain.summary)
        #expect(!summary.isEmpty && !plain.output.contains(summary))
        #expect(plain.output.contains("[play-"), "the report's findings follow the comparison")
        let headed = try #require(Self.text(Self.clean, Self.planted, .text, heading: true))
        #expect(headed.summary == nil)
        let markdown = try #require(Self.text(Self.clean, Self.planted, .markdown))
        #expect(markdown.summary == nil && markdown.output != plain.output)
    }
}
