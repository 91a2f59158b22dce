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
        final class Witness: Sendable {
            let ranOnCaller = Atomic<Bool>(false)
        }
        let caller = pthread_self()
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            DetachedThread.start(
                { witness.ranOnCaller.store(pthread_equal(pthread_self(), caller) != 0, ordering: .relaxed) },
                creatingThreadWith: { _ in EAGAIN })
            let ranOnCaller = witness.ranOnCaller.load(ordering: .relaxed)
            #expect(ranOnCaller)
        }
        #expect(released == nil, "the work's closure outlived the fallback")
    }
}
