import Dispatch
import Synchronization

/// A value worked out on another thread while the caller goes on (git's answers about the
/// repository, during a scan's read pass); `value` waits for it.
final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchGroup()

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: done) { [self] in
            let value = work()
            result.withLock { $0 = value }
        }
    }

    var value: Value {
        done.wait()
        return result.withLock { $0! }
    }
}
