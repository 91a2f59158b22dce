import Dispatch
import ScanEngine
import Testing

@testable import ScanEngine

/// The per-file counts of a read pass (files read, time in a check), added from every thread.
@Suite struct StripedCounterTests {
    @Test func everyAddFromEveryThreadIsCounted() {
        let counter = StripedCounter()
        // More threads than stripes, so some share one.
        DispatchQueue.concurrentPerform(iterations: 40) { thread in
            for _ in 0..<1_000 { counter.add(thread + 1) }
        }
        #expect(counter.total == (1...40).reduce(0, +) * 1_000)
    }

    @Test func takingTheTotalLeavesZero() {
        let counter = StripedCounter()
        counter.add(5)
        counter.add(7)
        #expect(counter.take() == 12)
        #expect(counter.total == 0)
        counter.add(1)
        #expect(counter.take() == 1)
    }

    /// The speed of the counters is that no two threads add to one cache line; the adjacent-line
    /// prefetcher moves lines in pairs, so the counts stay 128 bytes apart or more.
    @Test func stripesAreTwoCacheLinesApart() {
        #expect(StripedCounter.stripeStride >= 128)
    }
}
