import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A count that the read pass's threads add to for every file (files read, time in a check),
/// each thread in a cache line of its own. One atomic that every thread adds to moves its
/// cache line from core to core on nearly every add (see docs/performance.md, "Per-thread
/// striped counters").
package final class StripedCounter: @unchecked Sendable {
    /// One thread's share, alone in two cache lines (the adjacent-line prefetcher fetches
    /// lines in pairs).
    private struct Stripe: ~Copyable {
        let value = Atomic<Int>(0)
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
    }

    /// Bytes from one stripe's count to the next: at least two cache lines, so no two threads'
    /// counts share a line or an adjacent-line pair wherever the stripes start (`StripedCounterTests`).
    static let stripeStride = MemoryLayout<Stripe>.stride

    /// More than the threads a pass runs (one per core) on most machines; threads beyond share.
    private static let stripeCount = 16
    private let stripes: UnsafeMutablePointer<Stripe>

    package init() {
        stripes = .allocate(capacity: Self.stripeCount)
        for index in 0..<Self.stripeCount { (stripes + index).initialize(to: Stripe()) }
    }

    deinit {
        stripes.deinitialize(count: Self.stripeCount)
        stripes.deallocate()
    }

    package func add(_ amount: Int) {
        stripes[ThreadNumber.current % Self.stripeCount].value.add(amount, ordering: .relaxed)
    }

    /// The sum of what was added: exact once the threads adding are done (the pass is over).
    package var total: Int {
        (0..<Self.stripeCount).reduce(0) { $0 + stripes[$1].value.load(ordering: .relaxed) }
    }

    /// `total`, leaving the count at zero.
    package func take() -> Int {
        (0..<Self.stripeCount).reduce(0) { $0 + stripes[$1].value.exchange(0, ordering: .relaxed) }
    }
}

/// A small number per thread, given out in the order threads first ask: kept in a POSIX
/// thread-specific slot as the pointer's bits, so reading it retains no object.
private enum ThreadNumber {
    private static let next = Atomic<Int>(1)
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    static var current: Int {
        if let bits = pthread_getspecific(key) { return Int(bitPattern: bits) }
        let number = next.add(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number))
        return number
    }
}
