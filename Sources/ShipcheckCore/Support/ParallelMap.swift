import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element: Sendable {
    /// Maps on every core, keeping the order of the input. Work is handed out one element at
    /// a time from a shared counter so one large file does not hold up a whole stripe.
    public func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        parallelMap(window: .max, transform, completed: { _, _ in })
    }

    /// `parallelMap` that also hands each result to `completed` in input order, one call at a
    /// time, as soon as it and every result before it are ready — what a streaming report
    /// writes from. At most `window` elements are taken ahead of the first one not completed,
    /// so the results waiting for an earlier slow element stay bounded.
    public func parallelMap<T: Sendable>(window: Int, _ transform: @Sendable (Element) -> T,
                                         completed: @Sendable (Int, T) -> Void) -> [T] {
        // Appended in input order: `completed` runs in that order, one call at a time.
        let results = Mutex<[T]>([])
        parallelForEach(window: window, transform) { index, value in
            completed(index, value)
            results.withLock { $0.append(value) }
        }
        return results.withLock { $0 }
    }

    /// `parallelMap(window:_:completed:)` that keeps no result after `completed` has had it:
    /// memory stays bounded by `window` results however long the input (a listing streamed
    /// in buffers of a few hundred kilobytes).
    public func parallelForEach<T: Sendable>(window: Int, _ transform: @Sendable (Element) -> T,
                                             completed: @Sendable (Int, T) -> Void) {
        let results = Mutex<[T?]>(Array<T?>(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        // One permit per element taken and not yet completed.
        let permits = DispatchSemaphore(value: Swift.max(1, window))
        let nextToComplete = Mutex<Int>(0)
        let input = self
        DispatchQueue.concurrentPerform(iterations: Swift.max(1, Swift.min(activeProcessorCount, count))) { _ in
            while true {
                permits.wait()
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= input.count {
                    permits.signal()
                    break
                }
                let value = transform(input[index])
                results.withLock { $0[index] = value }
                // Whoever holds this lock completes every ready result in order; a result stored
                // meanwhile is seen by the holder's next look or by its own thread's turn after.
                nextToComplete.withLock { position in
                    while position < input.count, let ready = results.withLock({ $0[position].take() }) {
                        completed(position, ready)
                        position += 1
                        permits.signal()
                    }
                }
            }
        }
    }
}

/// Cores available to this process.
public var activeProcessorCount: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
