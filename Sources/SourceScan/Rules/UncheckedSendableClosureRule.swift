import ScanEngine
import ShipcheckCore

package enum UncheckedSendableClosureRule: SwiftSourceRule {
    package static let reportsInGeneratedFiles = false

    package static let description = RuleDescription(
        id: "unchecked-sendable-closure",
        summary: "An @unchecked Sendable type (or a nonisolated(unsafe) var) stores a closure that is not @Sendable",
        rationale: """
            `@unchecked Sendable` tells the compiler to trust the type's thread safety, and that \
            trust covers its stored closures too: a property of function type that is not \
            `@Sendable` is no longer checked for what it captures or where it runs. A closure \
            written in a `@MainActor` context (a SwiftUI `App` or `View`, a `@MainActor` type) is \
            inferred to be main-actor isolated; stored there and called from another thread, it \
            stops the process with a `dispatch_assert_queue` failure — with no warning under Swift 6 \
            strict checking. The same holds for `static` and global `var`s of function type guarded \
            only by `nonisolated(unsafe)`. The rule reports stored function-typed properties \
            (optionals, arrays, dictionaries and same-file typealiases of function types included) \
            that are neither `@Sendable` nor global-actor isolated (`@MainActor () -> Void`), \
            unless it can see that no actor-isolated closure gets in: every store it finds — \
            default value, assignments, memberwise constructions, `append` and subscript stores, in \
            this file and, for a property other files may write, in those (test code aside) — holds \
            `nil`, a closure literal written outside any global actor that uses no non-Sendable \
            closure it was handed, a method of a value whose type the file declares without a \
            global actor, or a `@Sendable` closure; or the property is private and every read — \
            every place its closure can be called — runs on one global actor (a closure isolated to \
            another global actor would still fail there; SwiftUI and UIKit code has one, the main \
            actor). A property no release code stores a closure \
            in (a test hook) is not reported. The finding names the store it could not trust. Test \
            code is left alone: it never runs in a release; so are generated files (a Sourcery mock \
            declares a closure property per protocol method; the header says so, or the \
            configuration's `generated` globs do) unless `check-generated` names the rule. Fix: declare the function type \
            `@Sendable` (the compiler then checks every closure stored there), or `@MainActor` if it \
            must run on the main actor.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                """
                import Foundation

                final class EventRelay: @unchecked Sendable {
                    private let lock = NSLock()
                    var ↓onEvent: ((String) -> Void)?
                    let ↓onFinish: () -> Void
                    init(onFinish: @escaping () -> Void) { self.onFinish = onFinish }
                }
                """,
                companions: [
                    "App/Screen.swift": """
                    @MainActor final class Screen {
                        let relay: EventRelay
                        init(relay: EventRelay) { self.relay = relay }
                        func start() { relay.onEvent = { print($0) } }
                    }
                    """
                ]),
            RuleExample(
                """
                struct Callbacks: @unchecked Sendable {
                    typealias Handler = (Int) -> Void
                    let ↓handler: Handler
                    var ↓observers: [String: () -> Void] = [:]
                }

                @MainActor func install(_ callbacks: inout Callbacks, handler: @escaping (Int) -> Void) {
                    callbacks = Callbacks(handler: handler)
                    callbacks.observers["log"] = { print("changed") }
                }
                """),
            RuleExample(
                """
                enum Hooks {
                    nonisolated(unsafe) static var ↓willTerminate: () -> Void = {}
                }
                nonisolated(unsafe) var ↓crashReporter: ((Error) -> Void)?

                @MainActor func configureHooks() {
                    Hooks.willTerminate = { print("bye") }
                    crashReporter = { print($0) }
                }
                """),
            RuleExample(
                """
                final class Cache {
                    private let ↓evict: (String) -> Void
                    init(evict: @escaping (String) -> Void) { self.evict = evict }
                    func trim(_ key: String) { evict(key) }
                }

                extension Cache: @unchecked Sendable {}
                """),
            RuleExample(
                """
                struct FileStream: @unchecked Sendable {
                    private let ↓flush: () -> Void
                    init(flush: @escaping () -> Int32) {
                        self.flush = { _ = flush() }
                    }
                    func sync() { flush() }
                }
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                private struct FetchCaptures: @unchecked Sendable {
                    weak var zone: Zone?
                    let completion: (Result<Record, Error>) -> Void
                }

                final class Zone {
                    func fetch(id: String, completion: @escaping (Result<Record, Error>) -> Void) {
                        let captures = FetchCaptures(zone: self, completion: completion)
                        database.fetch(id) { record, error in
                            Task { @MainActor in
                                guard let record else {
                                    return self.createZone { _ in captures.completion(.failure(error!)) }
                                }
                                captures.completion(.success(record))
                            }
                        }
                    }

                    func createZone(completion: @escaping @MainActor (Bool) -> Void) {}
                }
                """),
            RuleExample(
                """
                final class Relay: @unchecked Sendable {
                    let onEvent: @Sendable (String) -> Void
                    var onFinish: (@Sendable () -> Void)?
                    let render: @MainActor () -> Void
                    let callback: @convention(c) (Int32) -> Void
                    var count = 0
                    var summary: () -> String { { "relay" } }
                    static let name = "relay"
                    init(onEvent: @escaping @Sendable (String) -> Void, render: @escaping @MainActor () -> Void,
                         callback: @escaping @convention(c) (Int32) -> Void) {
                        self.onEvent = onEvent
                        self.render = render
                        self.callback = callback
                    }
                }
                """),
            RuleExample(
                """
                final class Model {
                    var onChange: (() -> Void)?
                }
                """),
            RuleExample(
                """
                final class Ticker: @unchecked Sendable {
                    private let tick: () -> Void
                    @MainActor init(tick: @escaping () -> Void) { self.tick = tick }
                    @MainActor func fire() { tick() }
                }
                """),
            RuleExample(
                """
                @MainActor final class ViewModel: @unchecked Sendable {
                    var onDone: (() -> Void)?
                }
                """),
            RuleExample(
                """
                enum Config {
                    nonisolated(unsafe) static var retries = 3
                    nonisolated(unsafe) static var hook: (@Sendable () -> Void)?
                }
                """),
            RuleExample(
                """
                final class ChannelHandler {
                    func didTerminate() {}
                }

                struct TerminationDelegate: @unchecked Sendable {
                    let onTerminate: () -> Void
                    let log: (String) -> Void
                    init(handler: ChannelHandler, prefix: String) {
                        self.onTerminate = handler.didTerminate
                        self.log = { print(prefix + $0) }
                    }
                }

                struct HandlerBox: @unchecked Sendable {
                    var handler: (() -> Void)?
                }

                final class BodyReader {
                    var box = HandlerBox(handler: nil)
                    func read(_ handler: @escaping @Sendable () -> Void) { box.handler = handler }
                }
                """),
            RuleExample(
                """
                import Foundation

                final class Store: @unchecked Sendable {
                    /// For testing purposes.
                    var makeDate: () -> Date = { Date() }
                }
                """, path: "Sources/Store/Store.swift",
                companions: [
                    "Tests/StoreTests/StoreTests.swift": """
                    import XCTest
                    @testable import Store

                    final class StoreTests: XCTestCase {
                        @MainActor func testDate() { Store().makeDate = { Date(timeIntervalSince1970: 0) } }
                    }
                    """
                ]),
            RuleExample(
                """
                import XCTest

                final class MockDelegate: @unchecked Sendable {
                    var didYield: ((Int) -> Void)?
                }
                """, path: "Tests/AppTests/MockDelegate.swift"),
            RuleExample(
                """
                final class Relay: @unchecked Sendable {
                    // shipcheck:ignore unchecked-sendable-closure -- only ever set and called under `lock` on the relay's queue
                    var onEvent: ((String) -> Void)?
                    func listen(_ handler: @escaping (String) -> Void) { onEvent = handler }
                }
                """)
        ]
    )

    package static let requiredText = ["@unchecked Sendable", "@unchecked Swift.Sendable", "nonisolated(unsafe)"]

    package static func mayApply(to contents: FileContents) -> Bool {
        contents.withBytes(StoredClosureFinder.mayDeclareFunctionTypedStorage)
    }

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        ProposedFinding.findings(of: self, in: file, context: context, StoredClosureFinder.hits(in:))
    }
}
