import Dispatch

/// Work started on another thread now, its value collected later (once).
final class Background<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    // Written once by the worker before it signals; read only after waiting.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.result = work()
            self.finished.signal()
        }
    }

    /// Waits for the work to finish.
    var value: Value {
        finished.wait()
        finished.signal()  // later reads do not block
        return result!
    }
}
