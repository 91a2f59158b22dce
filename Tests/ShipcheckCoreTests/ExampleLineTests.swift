import ScanEngine
import ShipcheckCore
import Testing

/// The line skeleton of the example text forms: an example's error names the line as the rule's
/// author wrote it, blank lines counted.
@Suite struct ExampleLineTests {
    @Test func linesAreNumberedAsWrittenAndBlankOnesSkipped() {
        let lines = ExampleLine.lines(of: "kind apk\n\nfile a b.txt\n")
        #expect(lines.map(\.number) == [1, 3])
        #expect(lines[1].fields == ["file", "a", "b.txt"])
        #expect(lines[1].rest == "a b.txt", "a path keeps its spaces")
        #expect(ExampleLine(number: 1, text: "string  two spaces").rest == " two spaces")
        #expect(ExampleLine(number: 1, text: "  string x").rest == "x", "leading spaces are not the keyword's end")
        #expect(ExampleLine(number: 1, text: "upload").rest.isEmpty)
    }

    @Test func errorNamesTheLineAndQuotesIt() {
        let error = ExampleLine(number: 3, text: "knd apk").error("unknown keyword 'knd'")
        #expect(error == InputError(path: "example", line: 3, message: "unknown keyword 'knd': knd apk"))
    }

    @Test func optionsAndPairs() throws {
        let options = ExampleLine.options(["stored=64", "textrel", "a=b=c", "="])
        #expect(options.map(\.0) == ["stored", "textrel", "a", "="])
        #expect(options.map(\.1) == ["64", nil, "b=c", nil])
        let line = ExampleLine(number: 2, text: "entitlements App k=v x")
        #expect(try line.pairs(["k=v", "get-task-allow=true"]) == ["k": "v", "get-task-allow": "true"])
        #expect(
            throws: InputError(path: "example", line: 2, message: "KEY=VALUE expected, not 'x': entitlements App k=v x")
        ) {
            try line.pairs(["k=v", "x"])
        }
    }
}
