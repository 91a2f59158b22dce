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
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        #else
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        #endif
        if status != 0 { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
    }
}
