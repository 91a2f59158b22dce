import ScanEngine
import ShipcheckCore

package enum DynamicPropertyCapturesSelfRule: SwiftSourceRule {
    package static let reportsInGeneratedFiles = false

    package static let description = RuleDescription(
        id: "dynamic-property-captures-self",
        summary: "A View or DynamicProperty struct stores a closure capturing self during init",
        rationale: """
            A SwiftUI view (or `DynamicProperty`) is a struct whose `@State`, `@StateObject`, \
            `@Binding`, `@Environment`… storage SwiftUI attaches after `init`, when it installs the \
            value in the view graph. Storing a method reference (`self.onTap = increment`) or a \
            closure that uses `self` — explicitly or implicitly, `{ [self] in … }`, \
            `{ count += 1 }`, `Binding(get: { draft }, …)` — into a stored property during `init` \
            captures a copy of `self` made before that: the closure reads stale state and its \
            writes never update the view. It compiles cleanly and fails quietly at run time. The \
            rule looks at structs that conform to `View` or `DynamicProperty` (directly or through \
            an extension anywhere in the scan) and have property-wrapper storage; closures that only \
            read `let` constants, method calls whose result is stored, closures called on the spot, \
            previews, code only debug builds compile and test code are fine. Fix: make the property \
            computed, so the closure is built from the attached view when it is used, or capture \
            only the values or references it needs. Generated files (a Sourcery, SwiftGen or Apollo \
            header, or the configuration's `generated` globs) are left alone unless \
            `check-generated` names the rule.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                """
                import SwiftUI

                struct CounterRow: View {
                    @State private var count = 0
                    private let onTap: () -> Void
                    init() {
                        self.onTap = ↓increment
                    }
                    var body: some View { Button("\\(count)", action: onTap) }
                    func increment() { count += 1 }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct SearchField: View {
                    @Binding var text: String
                    private let clear: () -> Void
                    init(text: Binding<String>) {
                        _text = text
                        clear = { [self] in ↓self.text = "" }
                    }
                    var body: some View { TextField("Search", text: $text).onSubmit(clear) }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct Editor: View {
                    @State private var draft = ""
                    private let binding: Binding<String>
                    init() {
                        binding = Binding(get: { ↓draft }, set: { draft = $0 })
                    }
                    var body: some View { TextField("Draft", text: binding) }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct Toggler {
                    @State private var isOn = false
                    let toggle: () -> Void
                    init() {
                        toggle = { ↓isOn.toggle() }
                    }
                }
                """,
                companions: [
                    "Toggler+DynamicProperty.swift": "import SwiftUI\n\nextension Toggler: DynamicProperty {}\n"
                ])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                import SwiftUI

                struct CounterRow: View {
                    @State private var count = 0
                    var onTap: () -> Void { increment }
                    var body: some View { Button("\\(count)", action: onTap) }
                    func increment() { count += 1 }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct Greeting: View {
                    @State private var waved = false
                    let name: String
                    var title = ""
                    let greet: () -> String
                    let log: () -> Void
                    init(name: String) {
                        self.name = name
                        self.log = { print(name) }
                        self.greet = { "Hello, \\(self.name)" }
                        title = makeTitle()
                    }
                    var body: some View { Text(greet()) }
                    func makeTitle() -> String { "Greeting" }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct Formatter {
                    @Clamped var precision: Int
                    let format: (Double) -> String
                    init() {
                        format = describe
                    }
                    func describe(_ value: Double) -> String { "\\(value)" }
                }

                final class ListModel: ObservableObject {
                    @Published var items: [String] = []
                    var onReload: () -> Void = {}
                    init() { onReload = reload }
                    func reload() {}
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct Plain: View {
                    let action: () -> Void
                    init() { action = { } }
                    var body: some View { Button("Go", action: action) }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct ChangeLogger: View {
                    @ObservedObject var store: Store
                    private var previousState: (Int) -> Int?
                    private let logTap: () -> Void
                    init(store: Store) {
                        _store = ObservedObject(wrappedValue: store)
                        #if os(iOS)
                        var previousState: Int? = nil
                        self.previousState = { state in
                            defer { previousState = state }
                            return previousState
                        }
                        #else
                        self.previousState = { _ in nil }
                        #endif
                        #if DEBUG
                        logTap = { print(self.store) }
                        #else
                        logTap = {}
                        #endif
                    }
                    var body: some View { Text("\\(store.count)") }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct CounterRow: View {
                    @State private var count = 0
                    private let onTap: () -> Void
                    init() {
                        // shipcheck:ignore dynamic-property-captures-self -- onTap only logs; it never touches state
                        self.onTap = logTap
                    }
                    var body: some View { Button("\\(count)", action: onTap) }
                    func logTap() { print("tap") }
                }
                """)
        ]
    )

    /// A View / DynamicProperty with property-wrapper storage imports SwiftUI (or names
    /// `DynamicProperty` for a custom one), and the rule looks only inside `init`.
    package static let requiredText = ["SwiftUI", "DynamicProperty"]
    /// The hits are in an `init` of the struct; the methods they may reference are its own or
    /// declared in the file's extensions.
    package static let parseScope = ParseScope.declarations([
        DeclarationNeed(holding: "init"), DeclarationNeed(holding: "func", introducer: "extension")
    ])

    package static func mayApply(to contents: FileContents) -> Bool {
        contents.withBytes { $0.contains(initNeedle) }
    }

    private static let initNeedle = Array("init".utf8)

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        ProposedFinding.findings(of: self, in: file, context: context) { SelfCaptureFinder.hits(in: $0.tree) }
    }
}
