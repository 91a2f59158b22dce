import ShipcheckCore

/// `release-references-debug-only`: the Archive build will not compile. Its check is
/// `ArchiveBreakerCheck` (two rounds over a target's files: DEBUG-only declarations, then the
/// release code that names them); this file turns a found reference into the finding.
package enum ArchiveBreakerRule: Rule {
    package static let description = RuleDescription(
        id: "release-references-debug-only",
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
            Development Assets files and in previews (which the preview rules report) are fine. \
            Test code is never archived, so it is not checked: files that only unit-test or \
            UI-test targets compile (pbxproj `productType`, XcodeGen `type`, SwiftPM \
            `testTarget`) and, in no target at all, files in a `Tests/` folder or named \
            `*Tests.swift`, `*.test.swift`, `*Spec.swift`; a file an app target compiles too \
            stays in scope. Uses in generated files (a Sourcery, SwiftGen, R.swift, protobuf or \
            Apollo header, or the configuration's `generated` globs) are not reported unless \
            `check-generated` names the rule; their declarations still count. `--explain` lists \
            the files left out and why.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
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
            RuleExample(
                """
                #if canImport(UIKit) && DEBUG
                func resetDemoAccount() {}
                #endif

                func signOut() {
                    ↓resetDemoAccount()
                }
                """),
            RuleExample(
                """
                struct User { var name: String }

                #if DEBUG
                extension User {
                    static let mock = User(name: "Ada")
                }
                #endif

                let currentUser = User.↓mock
                """),
            RuleExample(
                """
                import SwiftUI

                struct ContentView: View {
                    var body: some View {
                        Text(↓PreviewData.title)
                    }
                }
                """, path: "App/Views/ContentView.swift",
                companions: [
                    "Shared.xcconfig": "DEVELOPMENT_ASSET_PATHS = \"App/Preview Content\"\n",
                    "App/Preview Content/PreviewData.swift": "enum PreviewData {\n    static let title = \"Hello\"\n}\n"
                ]),
            RuleExample(
                """
                func launchForUITests() {
                    ↓MockData.install()
                }
                """, path: "Shared/Launcher.swift",
                companions: [
                    "project.yml": Self.exampleSpec,
                    "App/MockData.swift": "#if DEBUG\nenum MockData { static func install() {} }\n#endif\n"
                ])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                func testLaunch() {
                    MockData.install()
                }
                """, path: "AppChecks/Launcher.swift",
                companions: [
                    "project.yml": Self.exampleSpec,
                    "App/MockData.swift": "#if DEBUG\nenum MockData { static func install() {} }\n#endif\n"
                ]),
            RuleExample(
                """
                func testLaunch() {
                    MockData.install()
                }
                """, path: "Tests/App/Scenes/Launcher.test.swift",
                companions: ["App/MockData.swift": "#if DEBUG\nenum MockData { static func install() {} }\n#endif\n"]),
            RuleExample(
                """
                @testable import Feed

                func testItems() { _ = MockData.items }
                """, path: "Checks/FeedChecks/Items.swift",
                companions: [
                    "Package.swift":
                        "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Feed\", targets: [.target(name: \"Feed\"), .testTarget(name: \"FeedChecks\", dependencies: [\"Feed\"], path: \"Checks/FeedChecks\")])\n",
                    "Checks/FeedChecks/MockData.swift": "#if DEBUG\nenum MockData { static let items = [1] }\n#endif\n"
                ]),
            RuleExample(
                """
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
            RuleExample(
                """
                #if DEBUG
                let apiHost = "localhost"
                #else
                let apiHost = "api.example.com"
                #endif

                let endpoint = apiHost + "/v1"
                """),
            RuleExample(
                """
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
            RuleExample(
                """
                #if DEBUG
                struct MockData {}
                #endif

                struct Box<MockData> { var value: MockData }
                func wrap<MockData>(_ value: MockData) -> [MockData] { [value] }
                """),
            RuleExample(
                """
                #if DEBUG
                let sampleItems = ["one"]
                #endif

                struct Feed {
                    var sampleItems: [String] = []
                    func count() -> Int { sampleItems.count }
                }
                """),
            RuleExample(
                """
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
            RuleExample(
                """
                struct ContentView {
                    let title = PreviewData.title
                }
                """, path: "App/Preview Content/Gallery.swift",
                companions: [
                    "Shared.xcconfig": "DEVELOPMENT_ASSET_PATHS = \"App/Preview Content\"\n",
                    "App/Preview Content/PreviewData.swift": "enum PreviewData {\n    static let title = \"Hello\"\n}\n"
                ])
        ]
    )

    /// An XcodeGen spec with an app and a unit-test target sharing `Shared/`.
    static let exampleSpec = """
        name: App
        targets:
          App:
            type: application
            sources: [App, Shared]
          AppChecks:
            type: bundle.unit-test
            sources: [AppChecks, Shared]

        """

    /// The finding users read: at the reference, naming the declaration (the first of
    /// `declarations`) and the compiler error the Archive build will show.
    static func finding(for reference: ReferenceFact, declarations: [DeclaredName], path: String) -> Finding {
        let location = SourceLocation(
            path: path, line: reference.line, column: reference.column,
            endLine: reference.endLine, endColumn: reference.endColumn)
        let declaration = declarations[0]
        let others = declarations.count - 1
        let place =
            "declared at \(declaration.place)"
            + (others > 0 ? " and \(others) more place\(others == 1 ? "" : "s")" : "")
        let subject: String
        let compilerError: String
        switch reference.form {
        case .value:
            subject = reference.name
            compilerError = "cannot find '\(reference.name)' in scope"
        case .type:
            subject = reference.name
            compilerError = "cannot find type '\(reference.name)' in scope"
        case .member(let type):
            subject = "\(type).\(reference.name)"
            compilerError = "type '\(type)' has no member '\(reference.name)'"
        case .memberType(let type):
            subject = "\(type).\(reference.name)"
            compilerError = "'\(reference.name)' is not a member type of '\(type)'"
        }
        let exists =
            declaration.inDevelopmentAsset
            ? "exists only in Development Assets, which Archive builds drop" : "exists only in DEBUG builds"
        return Finding(
            ruleID: id, severity: description.defaultSeverity,
            message:
                "`\(subject)` \(exists) (\(place)) but is used by code compiled in release: the Archive build fails with \"\(compilerError)\"",
            location: .source(location), snippet: reference.lineText,
            fixHint: "wrap this use in #if DEBUG … #endif too, or move `\(reference.name)` out of the DEBUG-only code",
            identity: "\(subject) in \(reference.enclosing)")
    }
}
