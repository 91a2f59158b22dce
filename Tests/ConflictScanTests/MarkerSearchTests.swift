import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import Testing

@testable import ConflictScan

@Suite struct MarkerSearchTests {
    private func markers(_ text: String, size: Int = 7) -> [MarkerLine] {
        Array(text.utf8).withByteView { MarkerSearch.markerLines(in: $0, minimumSize: size) }
    }

    private func label(_ marker: MarkerLine, in text: String) -> String {
        String(decoding: Array(text.utf8)[marker.label], as: UTF8.self)
    }

    @Test func findsEveryKindAtLineStartsWithLabels() {
        let text = "a\n<<<<<<< HEAD\nb\n||||||| base\nc\n=======\nd\n>>>>>>> 38fbfb3 (feat)\n"
        let found = markers(text)
        #expect(found.map(\.kind) == [.opener, .base, .separator, .closer])
        #expect(found.map { label($0, in: text) } == ["HEAD", "base", "", "38fbfb3 (feat)"])
        #expect(found.map(\.size) == [7, 7, 7, 7])
    }

    @Test func runMustBeFollowedByWhitespaceOrEnd() {
        #expect(markers("<<<<<<<HEAD\n").isEmpty)
        #expect(markers(">>>>>>>").count == 1)
        #expect(markers("=======\t\n").count == 1)
        #expect(markers("=======\u{0B}\n").isEmpty, "git's isspace excludes vertical tab")
    }

    @Test func crlfLinesKeepTheLabelWithoutCarriageReturn() {
        let text = "x\r\n<<<<<<< HEAD\r\n=======\r\n>>>>>>> main\r\n"
        let found = markers(text)
        #expect(found.count == 3)
        #expect(label(found[0], in: text) == "HEAD")
        #expect(label(found[2], in: text) == "main")
    }

    @Test func ignoresRunsNotAtALineStart() {
        #expect(markers("let s = \"<<<<<<< HEAD\"\n  =======\nx>>>>>>> y\n").isEmpty)
    }

    @Test func reportsRunLengthSoShorterAndLongerRunsAreTold() {
        let found = markers("<<<<<<<<< nine\n<<<<<<<< eight\n<<<<<< six\n")
        #expect(found.map(\.size) == [9, 8])
    }

    @Test func findsRunsEveryProbeOffsetAndAtBufferEdges() {
        // A marker can start at any offset relative to the probe stride.
        for prefix in 0..<16 {
            let lead = String(repeating: "x", count: prefix) + "\n"
            #expect(markers(lead + ">>>>>>> t").count == 1, "prefix \(prefix)")
            #expect(markers(lead + "=======\n" + lead).count == 1, "prefix \(prefix)")
        }
        #expect(markers("<<<<<<<").count == 1)
        #expect(markers("<<<<<<").isEmpty)
        #expect(markers("").isEmpty)
    }

    @Test func longRunsAreMeasuredWhole() {
        let run = String(repeating: "=", count: 200)
        #expect(markers(run + "\n").map(\.size) == [200])
        #expect(markers(String(repeating: "=", count: 32) + "\n", size: 32).map(\.size) == [32])
    }
}

@Suite struct ContentScannerTests {
    private func scan(_ text: String, size: Int = 7) -> ContentConflicts {
        ContentScanner.scan(Array(text.utf8), markerSize: size)
    }

    @Test func completeBlockWithLinesAndLabels() throws {
        let result = scan("one\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\nlast\n")
        let block = try #require(result.blocks.first)
        #expect(result.blocks.count == 1 && result.remnants.isEmpty)
        #expect(block.opener.line == 2 && block.separator.line == 4 && block.closer.line == 6)
        #expect(block.opener.label == "HEAD" && block.closer.label == "feature")
        #expect(block.base == nil)
    }

    @Test func diff3BlockHasItsBaseLine() throws {
        let block = try #require(scan("<<<<<<< ours\na\n||||||| base\nb\n=======\nc\n>>>>>>> theirs\n").blocks.first)
        #expect(block.base?.line == 3)
        #expect(block.base?.label == "base")
    }

    @Test func nestedLongerBlocksBelongToTheOuterOne() throws {
        let text = """
            <<<<<<< HEAD
            ours
            ||||||| merged common ancestors
            <<<<<<<<< Temporary merge branch 1
            one
            ||||||||| 1111111
            zero
            =========
            two
            >>>>>>>>> Temporary merge branch 2
            =======
            theirs
            >>>>>>> feature

            """
        let result = scan(text)
        let block = try #require(result.blocks.first)
        #expect(result.blocks.count == 1 && result.remnants.isEmpty)
        #expect(block.nestedBlockCount == 1)
        #expect(block.closer.line == 13)
    }

    @Test func strayMarkersAreRemnantsButLoneSeparatorsAreNot() {
        let result = scan("=======\n>>>>>>> feature\ncode\n<<<<<<< HEAD\nmore\n||||||| base\n")
        #expect(result.blocks.isEmpty)
        #expect(result.remnants.map(\.marker.line) == [2, 4, 6])
        #expect(result.remnants.map(\.kind) == [.closer, .opener, .base])
    }

    @Test func openerWithoutSeparatorBeforeCloserIsTwoRemnants() {
        let result = scan("<<<<<<< HEAD\na\n>>>>>>> feature\n")
        #expect(result.blocks.isEmpty)
        #expect(result.remnants.map(\.kind) == [.opener, .closer])
    }

    @Test func newOpenerAbandonsAnUnfinishedBlock() {
        let result = scan("<<<<<<< stale\nx\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\n")
        #expect(result.blocks.map(\.opener.line) == [3])
        #expect(result.remnants.map(\.marker.line) == [1])
    }

    @Test func underlineInsideASideIsContent() {
        let result = scan("<<<<<<< HEAD\nTitle\n=======\n=======\nOther\n>>>>>>> feature\n")
        #expect(result.blocks.count == 1 && result.remnants.isEmpty)
    }

    @Test func markerSizeDecidesWhatCounts() {
        let seven = "<<<<<<< HEAD\n=======\n>>>>>>> feature\n"
        #expect(scan(seven, size: 32).blocks.isEmpty && scan(seven, size: 32).remnants.isEmpty)
        let big =
            String(repeating: "<", count: 32) + " HEAD\n" + String(repeating: "=", count: 32) + "\n"
            + String(repeating: ">", count: 32) + " x\n"
        #expect(scan(big, size: 32).blocks.count == 1)
        #expect(scan(big).blocks.isEmpty && scan(big).remnants.isEmpty, "32-char runs are not 7-char markers")
    }

    @Test func nulInTheFirst8000BytesMakesItBinary() {
        var bytes = Array("<<<<<<< HEAD\n=======\n>>>>>>> x\n".utf8)
        bytes.append(0)
        #expect(ContentScanner.scan(bytes).isBinary)
        #expect(ContentScanner.scan(bytes).blocks.isEmpty)
        let late =
            Array(repeating: UInt8(ascii: "a"), count: 8000) + [0] + Array("\n<<<<<<< HEAD\n=======\n>>>>>>> x\n".utf8)
        #expect(!ContentScanner.scan(late).isBinary)
        #expect(ContentScanner.scan(late).blocks.count == 1)
    }

    /// The conflict rules' findings in `text`, through the suppressions as every scan applies them.
    private func reported(_ text: String) -> [String] {
        let rules = ConflictRules(RuleRegistry.rules, configuration: Configuration())
        return rules.findings(in: ContentScanner.scan(Array(text.utf8), path: "notes.txt"), path: "notes.txt")
            .findings.map(\.ruleID)
    }

    @Test func ignoreDirectiveOnTheOpenerOrTheLineAbove() {
        #expect(reported("# shipcheck:ignore conflict-marker -- shown\n<<<<<<< HEAD\n=======\n>>>>>>> x\n").isEmpty)
        #expect(reported("<<<<<<< HEAD shipcheck:ignore conflict-marker\n=======\n>>>>>>> x\n").isEmpty)
        #expect(reported("<!-- shipcheck:ignore conflict-marker -->\n>>>>>>> x\n").isEmpty)
        #expect(reported(">>>>>>> x\n").count == 1, "the remnant is reported without a directive")
        // Two lines above is too far; another rule's id does not count.
        #expect(
            reported("# shipcheck:ignore conflict-marker\n\n<<<<<<< HEAD\n=======\n>>>>>>> x\n") == ["conflict-marker"])
        #expect(
            reported("# shipcheck:ignore preview-not-debug-only\n<<<<<<< HEAD\n=======\n>>>>>>> x\n")
                == ["conflict-marker"])
        #expect(
            reported("# shipcheck:ignore conflict-marker-remnant\n<<<<<<< HEAD\n=======\n>>>>>>> x\n")
                == ["conflict-marker"],
            "the remnant id does not silence a complete block")
    }

    @Test func invalidUTF8IsScannedAsBytes() throws {
        let bytes: [UInt8] =
            [0xFF, 0xFE, 0x0A] + Array("<<<<<<< caf".utf8) + [0xE9] + Array("\n=======\n>>>>>>> x\n".utf8)
        let block = try #require(ContentScanner.scan(bytes).blocks.first)
        #expect(block.opener.line == 2)
        #expect(block.opener.label.hasPrefix("caf"))
    }
}
