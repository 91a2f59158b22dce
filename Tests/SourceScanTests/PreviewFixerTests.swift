import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import SourceScan

@Suite struct PreviewFixerTests {
    @Test func wrapsAPreviewWithItsAttributesAndDocComment() {
        let source = """
            import SwiftUI

            // MARK: - Previews

            /// Light mode.
            @available(iOS 17, *)
            #Preview("Light") {
                ContentView()
            }

            """
        #expect(
            fixed(source).text == """
                import SwiftUI

                // MARK: - Previews

                #if DEBUG
                /// Light mode.
                @available(iOS 17, *)
                #Preview("Light") {
                    ContentView()
                }
                #endif

                """)
    }

    @Test func mergesAdjacentPreviewsAndKeepsIndentation() {
        let source = """
            struct Catalog {
                #Preview("A") { Text("a") }

                #Preview("B") { Text("b") }
                let value = 1
                struct Old_Previews: PreviewProvider { static var previews: some View { Text("c") } }
            }
            """
        #expect(
            fixed(source).text == """
                struct Catalog {
                    #if DEBUG
                    #Preview("A") { Text("a") }

                    #Preview("B") { Text("b") }
                    #endif
                    let value = 1
                    #if DEBUG
                    struct Old_Previews: PreviewProvider { static var previews: some View { Text("c") } }
                    #endif
                }
                """)
    }

    @Test func fileWithoutFinalNewlineAndCRLFLineEndings() {
        #expect(
            fixed("import SwiftUI\n#Preview { Text(\"a\") }").text
                == "import SwiftUI\n#if DEBUG\n#Preview { Text(\"a\") }\n#endif\n")
        #expect(
            fixed("import SwiftUI\r\n#Preview { Text(\"a\") } // sample\r\nlet x = 1\r\n").text
                == "import SwiftUI\r\n#if DEBUG\r\n#Preview { Text(\"a\") } // sample\r\n#endif\r\nlet x = 1\r\n")
    }

    @Test func wrapsInsideAPlatformConditionAndLeavesWrappedPreviewsAlone() {
        let source = "#if os(iOS)\n#Preview { A() }\n#endif\n#if DEBUG\n#Preview { B() }\n#endif\n"
        #expect(
            fixed(source).text
                == "#if os(iOS)\n#if DEBUG\n#Preview { A() }\n#endif\n#endif\n#if DEBUG\n#Preview { B() }\n#endif\n")
    }

    @Test func roundTripLeavesNothingToFixAndEveryOtherByteUnchanged() throws {
        let source = """
            import SwiftUI
            struct V: View { var body: some View { Text("é 🎉") } }
            #Preview { V() }
            func helper() {
                #Preview { V() }
            }
            extension V: PreviewProvider { static var previews: some View { V() } }

            """
        let directory = TemporaryDirectory()
        directory.write("V.swift", source)
        let scanner = SourceScanner(root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules)
        #expect(scanner.run().findings.count == 3)
        let result = scanner.fix()
        #expect(result.wrappedPreviews == 3 && result.notFixed.isEmpty)
        try #require(result.fixes.count == 1)
        try result.fixes[0].write()
        #expect(scanner.run().findings.isEmpty)
        let after = try #require(directory.read("V.swift"))
        let removed = after.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !["#if DEBUG", "#endif"].contains($0.trimmingCharacters(in: .whitespaces)) }
        #expect(removed.joined(separator: "\n") == source)
        #expect(scanner.fix().fixes.isEmpty)
    }

    @Test func previewSharingALineWithOtherCodeIsReportedNotFixed() throws {
        let (text, result) = fixed("let x = 1; #Preview { Text(\"a\") }\n")
        #expect(text == nil)
        let note = try #require(result.notFixed.first)
        #expect(note.line == 1 && note.message.contains("other code precedes it"))
    }

    @Test func suppressedPreviewsAreNotFixed() {
        #expect(fixed("// shipcheck:ignore preview-outside-debug -- demo\n#Preview { A() }\n").text == nil)
    }

    @Test func dryRunDiffIsAUnifiedDiff() throws {
        let (_, result) = fixed("import SwiftUI\n\nstruct A {}\n\n#Preview { A() }\n", path: "Sources/A.swift")
        let fix = try #require(result.fixes.first)
        #expect(
            fix.unifiedDiff == """
                --- a/Sources/A.swift
                +++ b/Sources/A.swift
                @@ -2,4 +2,6 @@
                 
                 struct A {}
                 
                +#if DEBUG
                 #Preview { A() }
                +#endif

                """)
    }

    @Test func writeRefusesAFileChangedSinceItWasRead() throws {
        let directory = TemporaryDirectory()
        directory.write("A.swift", "#Preview { A() }\n")
        let fix = try #require(
            SourceScanner(root: directory.path, configuration: Configuration(), rules: RuleRegistry.rules).fix().fixes
                .first)
        directory.write("A.swift", "#Preview { B() }\n")
        #expect(throws: InputError.self) { try fix.write() }
        #expect(directory.read("A.swift") == "#Preview { B() }\n")
    }

    @Test func verificationRejectsARewriteThatChangesTokens() throws {
        let source = "#Preview { A() }\n"
        let directory = TemporaryDirectory()
        directory.write("A.swift", source)
        let analysis = try ParsedSwiftFile(bytes: Array(source.utf8), path: "A.swift")
        #expect(
            PreviewFixer.verify(original: analysis.tree, fixed: Array("#if DEBUG\n#Preview { A() }\n#endif\n".utf8)))
        #expect(
            !PreviewFixer.verify(original: analysis.tree, fixed: Array("#if DEBUG\n#Preview { B() }\n#endif\n".utf8)))
        #expect(!PreviewFixer.verify(original: analysis.tree, fixed: Array("#if DEBUG\n#Preview { A() }\n".utf8)))
    }
}

@Suite struct UnifiedDiffTests {
    @Test func identicalTextsGiveNoDiff() {
        #expect(UnifiedDiff.render(original: "a\nb\n", modified: "a\nb\n", path: "f") == "")
    }

    @Test func separateHunksAndMissingFinalNewline() {
        let old = (1...12).map { "line \($0)\n" }.joined() + "end"
        let new = "first\n" + (1...12).map { "line \($0)\n" }.joined() + "end\n"
        #expect(
            UnifiedDiff.render(original: old, modified: new, path: "f") == """
                --- a/f
                +++ b/f
                @@ -1,3 +1,4 @@
                +first
                 line 1
                 line 2
                 line 3
                @@ -10,4 +11,4 @@
                 line 10
                 line 11
                 line 12
                -end
                \\ No newline at end of file
                +end

                """)
    }
}
