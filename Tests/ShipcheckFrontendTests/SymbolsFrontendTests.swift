import BinaryInspect
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct SymbolsFrontendTests {
    /// Each file that cannot be read is reported as it is met and fails the run (exit 2); the
    /// listing still has its header.
    @Test func unreadableFilesAreReportedAndFailTheRun() {
        let directory = TemporaryDirectory("shipcheck-symbols-frontend")
        let text = directory.write("notes.txt", "not a binary\n")
        let missing = directory.path + "/missing.so"
        let output = ByteOutput.memory()
        var reported: [String] = []
        let code = Frontend.listSymbols([missing, text], options: SymbolListOptions(), format: .csv, into: output) {
            reported.append($0.path)
        }
        #expect(code == ExitStatus.inputError)
        #expect(reported == [missing, text])
        #expect(
            String(decoding: output.written, as: UTF8.self)
                == "path,member,value,size,letter,type,binding,visibility,section,mangled,demangled\n")
    }

    /// The files are opened through the scan's file source, each once, like every other reader.
    @Test func filesAreOpenedThroughTheSourceOnce() {
        let binary = Repository.machOFixture("App-macos")
        let source = CountingFileSource()
        let output = ByteOutput.memory()
        let code = Frontend.listSymbols(
            [binary], options: SymbolListOptions(), format: .csv, into: output, source: source
        ) { Issue.record("\($0.path): \($0.message)") }
        #expect(code == 0)
        #expect(source.opens == [binary: 1])
        #expect(String(decoding: output.written, as: UTF8.self).split(separator: "\n").count > 10)
    }
}
