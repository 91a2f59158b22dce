import Foundation
import Synchronization

/// A value worked out on another thread while the caller goes on (git's listing while the
/// command line is parsed and the configuration loads, git's answers about the repository
/// during a scan's read pass); `value` waits for it. The work gets a thread of its own: it
/// waits on a child process, and blocking the shared dispatch pool (a fixed few threads on Linux, the read pass's among them) would
/// stall every other piece of work queued there until the pool notices and grows.
public final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchGroup()

    public init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        Thread.detachNewThread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.leave()
        }
    }

    public var value: Value {
        done.wait()
        return result.withLock { $0! }
    }
}
