import ShipcheckCore

package enum StateBuiltInInitRule: SwiftSourceRule {
    package static let reportsInGeneratedFiles = false

    package static let description = RuleDescription(
        id: "state-built-in-init",
        summary:
            "A view's init builds the object behind a @StateObject outside its autoclosure, or a class for a @State",
        rationale: """
            SwiftUI re-creates a view value every time its parent's body runs, but keeps its state \
            for the view's lifetime. `StateObject(wrappedValue:)` takes an `@autoclosure` that \
            SwiftUI runs once; an object built before the call — a local such as \
            `let observer = Observer(…); _observer = StateObject(wrappedValue: observer)`, or a \
            parameter a caller builds in the call or as its default value — is built (and \
            started) on every initialisation and all but the first are thrown away: wasted work, \
            duplicated side effects; an init that calls a method on the parameter it hands \
            SwiftUI (`viewModel.hydrate()`) repeats that work on every initialisation. (A \
            parameter is reported only with that evidence: a caller that passes an object it keeps \
            for the view's lifetime is fine.) \
            `State(initialValue:)` and `State(wrappedValue:)` take a plain value, so a class or \
            `@Observable` model built in the init for a `@State` property — inline or \
            beforehand — is built on every initialisation too. The rule looks only inside `init` \
            of types that declare the `@StateObject` / `@State` property assigned through its \
            `_name` storage, not in `App` types (SwiftUI builds the app once), previews, or code only \
            debug builds compile; for `@State` only classes (and actors) declared in the scanned \
            code count, so value types and literals stay clean. `shipcheck sources --fix` moves a plain \
            `let x = Type(…)` used only as the argument into the autoclosure, unless code between \
            the construction and the assignment could observe the move. Generated files (a \
            Sourcery, SwiftGen or Apollo header, or the configuration's `generated` globs) are left \
            alone unless `check-generated` names the rule.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                """
                import SwiftUI

                struct EpisodeView: View {
                    @StateObject private var observer: EpisodeObserver
                    init(episode: Episode) {
                        let observer = EpisodeObserver(episode: episode)
                        observer.start()
                        _observer = StateObject(wrappedValue: ↓observer)
                    }
                    var body: some View { Text(observer.title) }
                }
                """),
            RuleExample(
                """
                struct SearchView: View {
                    @StateObject var search: SearchModel
                    init(query: String) {
                        let model = SearchModel(query: query)
                        self._search = StateObject(wrappedValue: ↓model)
                    }
                    var body: some View { List(search.results) { Text($0.title) } }
                }
                """),
            RuleExample(
                """
                struct DetailView: View {
                    @SwiftUI.StateObject var model: DetailModel
                    init(model: DetailModel) {
                        _model = .init(wrappedValue: ↓model)
                    }
                    var body: some View { Text(model.name) }
                }
                """,
                companions: [
                    "ListView.swift": """
                    struct ListView: View {
                        let names: [String]
                        var body: some View {
                            ForEach(names, id: \\.self) { DetailView(model: DetailModel(name: $0)) }
                        }
                    }
                    """
                ]),
            RuleExample(
                """
                struct EpisodeRow: View {
                    @StateObject var viewModel: EpisodeRowViewModel
                    init(viewModel: EpisodeRowViewModel) {
                        _viewModel = StateObject(wrappedValue: ↓viewModel)
                        viewModel.hydrate()
                    }
                    var body: some View { Text(viewModel.title) }
                }
                """),
            RuleExample(
                """
                struct HomeView: View {
                    @StateObject private var viewModel: HomeViewModel
                    init(viewModel: HomeViewModel = HomeViewModel()) {
                        _viewModel = StateObject(wrappedValue: ↓viewModel)
                    }
                    var body: some View { Text(viewModel.title) }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                @Observable final class LibraryModel {
                    var books: [String] = []
                }

                struct LibraryView: View {
                    @State private var library: LibraryModel
                    init() {
                        _library = State(initialValue: ↓LibraryModel())
                    }
                    var body: some View { List(library.books, id: \\.self) { Text($0) } }
                }
                """),
            RuleExample(
                """
                struct PlayerView: View {
                    @State private var player: PlayerModel?
                    init(url: URL) {
                        let player = ↓PlayerModel(url: url)
                        _player = State(wrappedValue: player)
                    }
                    var body: some View { Text(player?.title ?? "") }
                }
                """,
                companions: [
                    "Models/PlayerModel.swift":
                        "final class PlayerModel {\n    init(url: URL) {}\n    var title = \"\"\n}\n"
                ]),
            RuleExample(
                """
                final class Counter: ObservableObject {}

                struct CounterView: View {
                    @State var counter: Counter
                    init() {
                        self._counter = .init(initialValue: ↓.init())
                    }
                    var body: some View { Text("count") }
                }
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                struct DetailView: View {
                    @StateObject private var model: DetailModel
                    init(id: Int) {
                        _model = StateObject(wrappedValue: DetailModel(id: id))
                    }
                    var body: some View { Text(model.name) }
                }
                """),
            RuleExample(
                """
                struct EpisodeView: View {
                    @StateObject private var observer: EpisodeObserver
                    init(episode: Episode) {
                        _observer = StateObject(wrappedValue: {
                            let observer = EpisodeObserver(episode: episode)
                            observer.start()
                            return observer
                        }())
                    }
                    var body: some View { Text(observer.title) }
                }
                """),
            RuleExample(
                """
                struct Draft { var title: String }
                final class Store {}

                struct EditorView: View {
                    @State private var draft: Draft
                    @State private var count: Int
                    @State private var store: Store
                    init(title: String, store: Store) {
                        _draft = State(initialValue: Draft(title: title))
                        _count = State(initialValue: 0)
                        _store = State(initialValue: store)
                    }
                    var body: some View { Text(draft.title) }
                }
                """),
            RuleExample(
                """
                import SwiftUI

                struct ClockView: View {
                    @State private var formatter: DateFormatter
                    init() {
                        _formatter = State(initialValue: DateFormatter())
                    }
                    var body: some View { Text("now") }
                }
                """),
            RuleExample(
                """
                final class Session {}

                final class Coordinator {
                    var _session: Session
                    init(session: Session) {
                        let fresh = Session()
                        _session = fresh
                    }
                }
                """),
            RuleExample(
                """
                @Observable final class LibraryModel {}

                struct LibraryView: View {
                    @State private var library: LibraryModel?
                    var body: some View {
                        Text("Library").task { library = LibraryModel() }
                    }
                }
                """),
            RuleExample(
                """
                struct DetailView: View {
                    @StateObject var model: DetailModel
                    init(model: DetailModel) {
                        _model = StateObject(wrappedValue: model)
                    }
                    var body: some View { Text(model.name) }
                }

                struct ParentView: View {
                    @StateObject private var model = DetailModel(name: "shared")
                    var body: some View { DetailView(model: model) }
                }

                #Preview {
                    DetailView(model: DetailModel(name: "sample"))
                }
                """),
            RuleExample(
                """
                @Observable final class PlayerListModel {
                    init(database: Database) {}
                }

                #Preview {
                    struct ContentView: View {
                        @State var model: PlayerListModel
                        init(database: Database) {
                            _model = State(initialValue: PlayerListModel(database: database))
                        }
                        var body: some View { Text("players") }
                    }
                    return ContentView(database: .random())
                }
                """),
            RuleExample(
                """
                @main
                struct ControlRoomApp: App {
                    @StateObject private var preferences: Preferences
                    init() {
                        let preferences = Preferences()
                        _preferences = StateObject(wrappedValue: preferences)
                    }
                    var body: some Scene { WindowGroup { Text("Room") } }
                }
                """),
            RuleExample(
                """
                struct SearchView: View {
                    @StateObject var search: SearchModel
                    init(query: String) {
                        let model = SearchModel(query: query)
                        // shipcheck:ignore state-built-in-init -- SearchModel's init only stores the query
                        self._search = StateObject(wrappedValue: model)
                    }
                    var body: some View { List(search.results) { Text($0.title) } }
                }
                """)
        ]
    )

    /// Both wrappers are spelled `@State…`, and a property wrapper needs its attribute in the
    /// file that declares the property.
    package static let requiredText = ["@State", "@SwiftUI.State"]
    /// The wrapped property and the inits assigning it are members of one type declaration.
    package static let parseScope = ParseScope.declarations([
        DeclarationNeed(holding: "@State"), DeclarationNeed(holding: "@SwiftUI.State")
    ])

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        ProposedFinding.findings(of: self, in: file, context: context, StateInitFinder.hits(in:))
    }
}
