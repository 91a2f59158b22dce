import Dispatch
import Foundation
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

    /// Runs `body` on a new thread (with a stack of `stackSize` bytes when given, else the
    /// system's default); on this one, now, when no thread can be made (the process is at its
    /// limit).
    package static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        start(body) { context in createDetachedThread(context, stackSize: stackSize) }
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
    private static func createDetachedThread(_ context: UnsafeMutableRawPointer, stackSize: Int?) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
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

/// The read pass's workers: threads of their own with a main thread's stack. Dispatch's workers
/// have 512 KiB stacks on Darwin (and the process's stack limit on Linux), on which
/// swift-syntax's recursive descent overflows on a file of a few dozen nested closures, a file
/// any worker may get.
package enum WorkerThreads {
    /// 8 MiB: what the main thread gets on Darwin and Linux.
    package static let stackSize = 8 << 20
    /// How debuggers, crash reports and `top -H` show the workers (15 bytes at most on Linux).
    package static let threadName = "shipcheck-work"

    /// Runs `body(worker)` for every `worker` in `0..<count`, each on a thread of its own, and
    /// returns when all have returned. Called again from a worker (an artifact's libraries in a
    /// run over several artifacts), the nested work shares Dispatch's pool, bounded by the
    /// cores as before, rather than multiplying threads.
    package static func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
        if isWorker.value.isSet {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
            return
        }
        withoutActuallyEscaping(body) { body in
            // The threads hold the job, not `body`: a thread lets go of what it was started with
            // only after its last step, which may come after `run` has returned, and `body`
            // must not outlive this call.
            let job = Job(body)
            let done = DispatchGroup()
            for worker in 0..<count {
                done.enter()
                DetachedThread.start(stackSize: stackSize) {
                    nameThisThread()
                    isWorker.value.isSet = true
                    job.run(worker)
                    done.leave()
                }
            }
            done.wait()
            job.finish()
        }
    }

    /// Through Foundation: Glibc's module leaves out `pthread_setname_np` (a GNU extension).
    private static func nameThisThread() {
        Thread.current.name = threadName
    }

    /// Set on the threads `run` makes.
    private static let isWorker = PerThread(Flag.init)

    private final class Flag {
        var isSet = false
    }

    /// The body the workers share, dropped once they have all run it.
    private final class Job: @unchecked Sendable {
        // Written before the threads start and after they are done (`done.wait()` orders both).
        private var body: (@Sendable (Int) -> Void)?

        init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }

        func run(_ worker: Int) { body?(worker) }
        func finish() { body = nil }
    }
}
