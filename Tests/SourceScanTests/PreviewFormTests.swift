import ShipcheckCore
import Testing

@testable import SourceScan

/// Every shape a preview takes in real code is found, and nothing that merely looks like one.
@Suite struct PreviewFormTests {
    @Test func topLevelExpressionStatement() {
        #expect(places("import SwiftUI\n#Preview { Text(\"a\") }\n") == ["2:1 preview-outside-debug"])
    }

    @Test func namedWithTraitsAndTrailingClosures() {
        let source = """
            #Preview("Card", traits: .landscapeLeft, .sizeThatFitsLayout) {
                Card()
            }
            #Preview("Two") { Text("a") } _: { Text("b") }
            """
        #expect(places(source) == ["1:1 preview-outside-debug", "4:1 preview-outside-debug"])
    }

    @Test func declarationFormAfterAvailabilityAttribute() {
        let source = """
            @available(iOS 17.0, *)
            #Preview {
                ContentView()
            }
            """
        #expect(places(source) == ["2:1 preview-outside-debug"])
    }

    @Test func insideATypeAndInsideAFunction() {
        let source = """
            struct Host {
                #Preview { Text("member") }
                func make() {
                    #Preview { Text("statement") }
                }
            }
            """
        #expect(places(source) == ["2:5 preview-outside-debug", "4:9 preview-outside-debug"])
    }

    @Test func uiKitAndAppKitBodies() {
        let source = """
            #Preview("UIKit") {
                let controller = UIViewController()
                controller.view.backgroundColor = .red
                return controller
            }
            #Preview("AppKit") {
                NSView()
            }
            """
        #expect(places(source).count == 2)
    }

    @Test func providerConformancesOfEveryKind() {
        let source = """
            struct A_Previews: PreviewProvider { static var previews: some View { A() } }
            class B_Previews: SwiftUI.PreviewProvider { static var previews: some View { B() } }
            enum C_Previews: _PreviewProvider {}
            actor D: PreviewModifier {}
            extension E: PreviewProvider { static var previews: some View { E() } }
            struct F: @MainActor PreviewProvider { static var previews: some View { F() } }
            """
        #expect(places(source) == (1...6).map { "\($0):1 preview-provider-outside-debug" })
    }

    @Test func notFindings() {
        let source = """
            // #Preview { Text("commented") }
            /* struct X: PreviewProvider {} */
            let text = "#Preview { Text(\\"string\\") }"
            let registry: [String: any PreviewProvider.Type] = [:]
            func run(_ type: any PreviewProvider.Type) {}
            struct NotAPreview: PreviewProviding {}
            #if DEBUG
            #Preview {
                @Previewable @State var value = 1
                Stepper("\\(value)", value: $value)
            }
            #endif
            """
        #expect(places(source).isEmpty)
    }

    @Test func findingMessageQuotesTheEnclosingConditions() throws {
        let result = scan(["View.swift": "#if !os(watchOS)\n#Preview(\"Phone\") { Text(\"a\") }\n#endif\n"])
        let finding = try #require(result.findings.first)
        #expect(
            finding.message
                == "#Preview(\"Phone\") is compiled in release when !os(watchOS): enclosing #if !os(watchOS)")
        #expect(finding.snippet == "#Preview(\"Phone\") { Text(\"a\") }")
        guard case .source(let location) = finding.location else {
            Issue.record("no source location")
            return
        }
        #expect(location.endColumn == 9)
    }

    @Test func unnamedPreviewsInOneFileGetDistinctFingerprints() {
        let result = scan(["View.swift": "#Preview { Text(\"a\") }\n#Preview { Text(\"b\") }\n"])
        let report = Report(findings: result.findings)
        #expect(Set(report.findings.map(\.fingerprint)).count == 2)
    }
}
