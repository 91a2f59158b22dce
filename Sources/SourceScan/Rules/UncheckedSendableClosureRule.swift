import ShipcheckCore

enum UncheckedSendableClosureRule: SourceFileRule {
    static let id = "unchecked-sendable-closure"

    static let description = RuleDescription(
        id: id,
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
            that are neither `@Sendable` nor global-actor isolated (`@MainActor () -> Void`). A \
            `let` whose closure can be seen to stay on one actor — a `private` property stored by an \
            initialiser and called only from code isolated to the same global actor — is fine; \
            otherwise the finding says why the rule could not see that. Fix: declare the function \
            type `@Sendable` (the compiler then checks every closure stored there), or \
            `@MainActor` if it must run on the main actor.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                import Foundation

                final class EventRelay: @unchecked Sendable {
                    private let lock = NSLock()
                    var ↓onEvent: ((String) -> Void)?
                    let ↓onFinish: () -> Void
                    init(onFinish: @escaping () -> Void) { self.onFinish = onFinish }
                }
                """),
            RuleExample("""
                struct Callbacks: @unchecked Sendable {
                    typealias Handler = (Int) -> Void
                    let ↓handler: Handler
                    var ↓observers: [String: () -> Void] = [:]
                }
                """),
            RuleExample("""
                enum Hooks {
                    nonisolated(unsafe) static var ↓willTerminate: () -> Void = {}
                }
                nonisolated(unsafe) var ↓crashReporter: ((Error) -> Void)?
                """),
            RuleExample("""
                final class Cache {
                    private let ↓evict: (String) -> Void
                    init(evict: @escaping (String) -> Void) { self.evict = evict }
                    func trim(_ key: String) { evict(key) }
                }

                extension Cache: @unchecked Sendable {}
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
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
            RuleExample("""
                final class Model {
                    var onChange: (() -> Void)?
                }
                """),
            RuleExample("""
                final class Ticker: @unchecked Sendable {
                    private let tick: () -> Void
                    @MainActor init(tick: @escaping () -> Void) { self.tick = tick }
                    @MainActor func fire() { tick() }
                }
                """),
            RuleExample("""
                @MainActor final class ViewModel: @unchecked Sendable {
                    var onDone: (() -> Void)?
                }
                """),
            RuleExample("""
                enum Config {
                    nonisolated(unsafe) static var retries = 3
                    nonisolated(unsafe) static var hook: (@Sendable () -> Void)?
                }
                """),
            RuleExample("""
                final class Relay: @unchecked Sendable {
                    // shipcheck:ignore unchecked-sendable-closure -- only ever set and called under `lock` on the relay's queue
                    var onEvent: ((String) -> Void)?
                }
                """),
        ]
    )

    static func mayTrigger(_ bytes: UnsafeRawBufferPointer) -> Bool {
        prefilter.matches(bytes) && StoredClosureFinder.mayDeclareFunctionTypedStorage(bytes)
    }

    private static let prefilter = BytePrefilter([["@unchecked Sendable", "@unchecked Swift.Sendable", "nonisolated(unsafe)"]])

    static func check(_ file: ParsedSwiftFile) -> [RuleHit] {
        StoredClosureFinder.hits(in: file.tree)
    }
}
