import ShipcheckCore

package enum PreviewProviderOutsideDebugRule: SwiftSourceRule {
    package static let concernsReleaseBuilds = true

    package static let description = RuleDescription(
        id: "preview-provider-outside-debug",
        summary: "A PreviewProvider (or PreviewModifier) type is compiled in release builds",
        rationale: """
            Types conforming to `PreviewProvider`, `_PreviewProvider` or `PreviewModifier` — declared \
            directly or through an extension — exist only for Xcode's canvas. Outside `#if DEBUG` \
            they ship in the release binary (with their conformance records and sample data) and \
            break Archive builds when they use Development Assets. Wrap them in `#if DEBUG`.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                import SwiftUI
                ↓struct ContentView_Previews: PreviewProvider {
                    static var previews: some View { ContentView() }
                }
                """),
            RuleExample(
                """
                ↓extension ContentView: SwiftUI.PreviewProvider {
                    static var previews: some View { ContentView() }
                }
                """),
            RuleExample(
                """
                @available(iOS 18, *)
                ↓struct SampleData: PreviewModifier {
                    static func makeSharedContext() async throws -> Int { 1 }
                }
                """),
            RuleExample(
                """
                #if os(iOS)
                ↓enum Legacy_Previews: _PreviewProvider {}
                #endif
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                #if DEBUG
                struct ContentView_Previews: PreviewProvider {
                    static var previews: some View { ContentView() }
                }
                #endif
                """),
            RuleExample(
                """
                let registry: [String: any PreviewProvider.Type] = [:]
                func show(_ provider: any PreviewProvider.Type) {}
                """),
            RuleExample(
                """
                struct PreviewProviderList: View {
                    var body: some View { Text("PreviewProvider") }
                }
                """)
        ]
    )

    package static let requiredText = ["Preview"]
    /// A provider names its protocol in its own declaration, inside the top-level one.
    package static let parseScope = ParseScope.declarations([DeclarationNeed(holding: "Preview")])

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        file.previews.compactMap { preview in
            guard case .provider = preview.kind else { return nil }
            return preview.finding(self, in: file, context)
        }
    }
}
