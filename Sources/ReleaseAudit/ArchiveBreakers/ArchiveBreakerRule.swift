import ShipcheckCore
import SourceScan

/// `release-references-debug-only`: the Archive build will not compile.
public enum ArchiveBreakerRule {
    public static let id = "release-references-debug-only"

    public static let description = RuleDescription(
        id: id,
        summary: "Release code uses a declaration that exists only in DEBUG builds or in Development Assets",
        rationale: """
            A type, function, property or enum case declared only under `#if DEBUG` (or any \
            configured debug-only flag), or in a Development Assets folder ("Preview Content", \
            `development-paths`), does not exist in a release build. Code that a release build \
            compiles and that names it builds fine in Debug and on every simulator run, then the \
            Archive build fails with "cannot find 'MockData' in scope" — on CI, on release day. \
            The finding points at the use and names the declaration. Names are matched within \
            one target (a SwiftPM `Sources/<Target>` folder, otherwise the scanned tree) and \
            resolved lexically: local variables, parameters, closure parameters, pattern \
            bindings and generic parameters with the same name are not the declaration, and a \
            name that release code also declares is never reported. Uses inside `#if DEBUG`, in \
            Development Assets files and in previews (which the preview rules report) are fine.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                #if DEBUG
                struct MockData {
                    static let items = ["one", "two"]
                }
                #endif

                struct ContentView {
                    let items = ↓MockData.items
                    func show(_ data: ↓MockData) {}
                }
                """),
            RuleExample("""
                #if canImport(UIKit) && DEBUG
                func resetDemoAccount() {}
                #endif

                func signOut() {
                    ↓resetDemoAccount()
                }
                """),
            RuleExample("""
                struct User { var name: String }

                #if DEBUG
                extension User {
                    static let mock = User(name: "Ada")
                }
                #endif

                let currentUser = User.↓mock
                """),
            RuleExample("""
                import SwiftUI

                struct ContentView: View {
                    var body: some View {
                        Text(↓PreviewData.title)
                    }
                }
                """, path: "App/Views/ContentView.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent,
                             "App/Preview Content/PreviewData.swift": "enum PreviewData {\n    static let title = \"Hello\"\n}\n"]),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                #if DEBUG
                struct MockData { static let items = ["one"] }
                #endif

                struct ContentView {
                    #if DEBUG
                    let items = MockData.items
                    #else
                    let items: [String] = []
                    #endif
                }
                """),
            RuleExample("""
                #if DEBUG
                let apiHost = "localhost"
                #else
                let apiHost = "api.example.com"
                #endif

                let endpoint = apiHost + "/v1"
                """),
            RuleExample("""
                #if DEBUG
                let sampleItems = ["one"]
                #endif

                func render(sampleItems: [String]) -> Int { sampleItems.count }
                func total(_ lists: [[String]]) -> Int {
                    let counts = lists.map { sampleItems in sampleItems.count }
                    let sampleItems = lists.joined()
                    var sum = sampleItems.count
                    for sampleItems in lists { sum += sampleItems.count }
                    if let sampleItems = lists.first { sum += sampleItems.count }
                    return sum + counts.count
                }
                """),
            RuleExample("""
                #if DEBUG
                struct MockData {}
                #endif

                struct Box<MockData> { var value: MockData }
                func wrap<MockData>(_ value: MockData) -> [MockData] { [value] }
                """),
            RuleExample("""
                #if DEBUG
                let sampleItems = ["one"]
                #endif

                struct Feed {
                    var sampleItems: [String] = []
                    func count() -> Int { sampleItems.count }
                }
                """),
            RuleExample("""
                import SwiftUI

                #if DEBUG
                struct MockData { static let title = "Hello" }
                #endif

                // MockData is only for previews; see "MockData" in the docs.
                struct ContentView: View {
                    var body: some View { Text("MockData") }
                }

                #Preview {
                    Text(MockData.title)
                }
                """),
            RuleExample("""
                struct ContentView {
                    let title = PreviewData.title
                }
                """, path: "App/Preview Content/Gallery.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent,
                             "App/Preview Content/PreviewData.swift": "enum PreviewData {\n    static let title = \"Hello\"\n}\n"]),
        ]
    )
}
