import Synchronization

/// How far a long run is: its phase and the files (or artifacts) done out of the total. The
/// scan updates it from its worker threads; the command line shows it on a terminal.
package final class ScanProgress: Sendable {
    package struct Snapshot: Sendable, Equatable {
        package var phase: String
        package var done: Int
        package var total: Int
    }

    private let state = Mutex(Snapshot(phase: "listing files", done: 0, total: 0))

    package init() {}

    /// A new phase over `total` items.
    package func begin(_ phase: String, total: Int) {
        state.withLock { $0 = Snapshot(phase: phase, done: 0, total: total) }
    }

    /// More items in the current phase (files listed late).
    package func grow(by count: Int) {
        state.withLock { $0.total += count }
    }

    package func advance() {
        state.withLock { $0.done += 1 }
    }

    package var snapshot: Snapshot { state.withLock { $0 } }
}
