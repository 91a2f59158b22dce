import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value worked out on another thread while the caller goes on (git's listing while the
/// command line is parsed, git's answers about the repository during a scan's read pass);
/// `value` waits for it. The work gets a thread of its own (`DetachedThread`): it waits on a
/// child process, and blocking the shared dispatch pool (a fixed few threads on Linux, the
/// read pass's among them) would stall every other piece of work queued there until the pool
/// notices and grows.
package final class BackgroundValue<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchGroup()

    package init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        DetachedThread.start { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.leave()
        }
    }

    package var value: Value {
        done.wait()
        return result.withLock { $0! }
    }
}

/// Work on a POSIX thread of its own, which nobody joins: on the path of every command's first
/// git run, where Foundation's `Thread` (an object, its class and per-thread set-up) made
/// `query run` of a selective literal measurably slower (see docs/performance.md, "Background
/// work on a detached POSIX thread").
package enum DetachedThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread; on this one, now, when no thread can be made (the process
    /// is at its limit).
    package static func start(_ body: @escaping @Sendable () -> Void) {
        start(body, creatingThreadWith: createDetachedThread)
    }

    /// `start` with the call that makes the thread given: it returns 0 once the thread owns
    /// the context, else an error number (a test makes it fail).
    static func start(
        _ body: @escaping @Sendable () -> Void, creatingThreadWith create: (UnsafeMutableRawPointer) -> Int32
    ) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        if create(context) != 0 { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
    }

    /// A detached POSIX thread that runs (and releases) the `Body` at `context`.
    private static func createDetachedThread(_ context: UnsafeMutableRawPointer) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // The thread's handle is optional on Darwin (`pthread_t` is a pointer there), an
        // integer on Linux; nothing reads it, the thread being detached.
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        return pthread_create(
            &thread, &attributes,
            { context in
                // Optional in Glibc's and today's Darwin SDK's signature, not in older Darwin
                // SDKs': one spelling for both, as in `PerThread`.
                let pointer: UnsafeMutableRawPointer? = context
                Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
                return nil
            }, context)
    }
}
