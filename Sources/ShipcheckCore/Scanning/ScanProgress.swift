import Synchronization

/// How far a long run is: its phase and the files (or artifacts) done out of the total. The
/// scan updates it from its worker threads; the command line shows it on a terminal.
public final class ScanProgress: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var phase: String
        public var done: Int
        public var total: Int
    }

    private let state = Mutex(Snapshot(phase: "listing files", done: 0, total: 0))

    public init() {}

    /// A new phase over `total` items.
    public func begin(_ phase: String, total: Int) {
        state.withLock { $0 = Snapshot(phase: phase, done: 0, total: total) }
    }

    /// More items in the current phase (files listed late).
    public func grow(by count: Int) {
        state.withLock { $0.total += count }
    }

    public func advance() {
        state.withLock { $0.done += 1 }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }
}
