import Dispatch
import ScanEngine
import Synchronization
import Testing

@testable import ScanEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work on a thread of its own (git's listing, subprocess pipes): side by side with the caller,
/// and still done when no thread can be made.
@Suite struct BackgroundValueTests {
    @Test func backgroundValuesAreWorkedOutSideBySide() {
        // The first value waits for the second to start: done one after the other on the
        // caller's thread, it would wait out its timeout and be false.
        let second = DispatchSemaphore(value: 0)
        let first = BackgroundValue { second.wait(timeout: .now() + 10) == .success }
        let started = BackgroundValue {
            second.signal()
            return 42
        }
        #expect(started.value == 42)
        #expect(first.value)
        let many = (0..<64).map { index in BackgroundValue { index * index } }
        #expect(many.map(\.value) == (0..<64).map { $0 * $0 })
    }

    /// At the process's thread limit the work still gets done: on the caller's thread, before
    /// `start` returns, and its closure freed after.
    @Test func whenNoThreadCanBeMadeTheWorkRunsOnTheCaller() {
        // The thread the work ran on is kept for the caller to compare: `pthread_t` is a
        // pointer on Darwin, not Sendable, so the work's closure cannot capture the caller's.
        final class Witness: Sendable {
            let ranOn = Mutex<pthread_t?>(nil)
        }
        let caller = pthread_self()
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            DetachedThread.start(
                { witness.ranOn.withLock { $0 = pthread_self() } },
                creatingThreadWith: { _ in EAGAIN })
            let ranOnCaller = witness.ranOn.withLock { ranOn in ranOn.map { pthread_equal($0, caller) != 0 } ?? false }
            #expect(ranOnCaller)
        }
        #expect(released == nil, "the work's closure outlived the fallback")
    }
}
