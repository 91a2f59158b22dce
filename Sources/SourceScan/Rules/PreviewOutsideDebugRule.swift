import ShipcheckCore

package enum PreviewOutsideDebugRule: SwiftSourceRule {
    package static let concernsReleaseBuilds = true

    package static let description = RuleDescription(
        id: "preview-outside-debug",
        summary: "A #Preview is compiled in release builds",
        rationale: """
            Xcode compiles SwiftUI previews in every configuration. A `#Preview` that is not inside \
            `#if DEBUG` ships in the release binary, and when it uses Development Assets (which \
            Archive builds drop) the archive fails with "cannot find … in scope" on the day a \
            release is cut. Every `#Preview` must sit in a region no release build compiles: \
            `#if DEBUG`, `#else` of `#if !DEBUG`, or a debug-only flag from the configuration. \
            Platform conditions such as `#if os(iOS)` do not count. `shipcheck sources --fix` wraps \
            the preview, with its attributes and doc comment, in `#if DEBUG … #endif`. Test code \
            is never archived: previews in files that only unit-test or UI-test targets compile \
            (or, in no target, in `Tests/` folders and `*Tests.swift`, `*.test.swift`, \
            `*Spec.swift` files) are not reported (`--explain` lists them).
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                import SwiftUI
                ↓#Preview {
                    Text("Hello")
                }
                """),
            RuleExample(
                """
                @available(iOS 17, *)
                ↓#Preview("Dark", traits: .sizeThatFitsLayout) {
                    ContentView()
                }
                """),
            RuleExample(
                """
                #if DEBUG
                let sample = 1
                #endif

                ↓#Preview { ContentView() }
                """),
            RuleExample(
                """
                #if DEBUG || targetEnvironment(simulator)
                ↓#Preview { ContentView() }
                #endif
                """),
            RuleExample(
                """
                #if !os(watchOS)
                ↓#Preview { ContentView() }
                #endif
                """),
            RuleExample(
                """
                struct Gallery {
                    ↓#Preview { Text("member") }
                }
                """),
            RuleExample(
                """
                #if DEBUG
                #elseif os(iOS)
                ↓#Preview { UIViewController() }
                #endif
                """),
            RuleExample(
                """
                #if os(iOS)
                #else
                #if !os(iOS)
                ↓#Preview { NSView() }
                #endif
                #endif
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                #if DEBUG
                #Preview { ContentView() }
                #endif
                """),
            RuleExample(
                """
                import SwiftUI

                #Preview("Snapshot") { CardView() }
                """, path: "AppTests/CardSnapshotTests.swift"),
            RuleExample(
                """
                #if canImport(SwiftUI) && DEBUG
                @available(iOS 17, *)
                #Preview("Named") { ContentView() }
                #endif
                """),
            RuleExample(
                """
                #if !DEBUG
                let production = true
                #else
                #Preview { ContentView() }
                #endif
                """),
            RuleExample(
                """
                #if os(iOS)
                #if DEBUG
                #Preview { ContentView() }
                #endif
                #endif
                """),
            RuleExample(
                """
                #if os(iOS)
                #elseif os(iOS) && !DEBUG
                #else
                #if os(iOS)
                #Preview { ContentView() }
                #endif
                #endif
                """),
            RuleExample(
                """
                // #Preview { ContentView() }
                let text = "#Preview { ContentView() }"
                /* #Preview { Text("old") } */
                """),
            RuleExample(
                """
                #if DEBUG
                #Preview {
                    @Previewable @State var on = true
                    Toggle("On", isOn: $on)
                }
                #endif
                """),
            RuleExample(
                """
                // shipcheck:ignore preview-outside-debug -- the demo target is never archived
                #Preview { ContentView() }
                """)
        ]
    )

    package static let requiredText = ["Preview"]
    /// A `#Preview` is in the top-level declaration holding it (or is one).
    package static let parseScope = ParseScope.declarations([DeclarationNeed(holding: "Preview")])

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        file.previews.compactMap { preview in
            guard case .macro = preview.kind else { return nil }
            return preview.finding(self, in: file, context)
        }
    }
}
