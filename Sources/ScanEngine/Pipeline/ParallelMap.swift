import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(ObjectiveC)
import ObjectiveC
#endif

extension Array where Element: Sendable {
    /// Maps on every core, keeping the order of the input. Work is handed out a few elements at
    /// a time (at most 16, at most a quarter of a worker's share) from a shared counter so one
    /// large file does not hold up a whole stripe.
    package func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        parallelMap(window: .max, transform, completed: { _, _ in })
    }

    /// `parallelMap` that also hands each result to `completed` in input order, one call at a
    /// time, as soon as it and every result before it are ready — what a streaming report
    /// writes from. At most `window` elements are taken ahead of the first one not completed,
    /// so the results waiting for an earlier slow element stay bounded.
    package func parallelMap<T: Sendable>(
        window: Int, _ transform: @Sendable (Element) -> T,
        completed: @Sendable (Int, T) -> Void
    ) -> [T] {
        // Appended in input order: `completed` runs in that order, one call at a time.
        var reserved: [T] = []
        reserved.reserveCapacity(count)
        let results = Mutex(reserved)
        parallelForEach(window: window, transform) { index, value in
            completed(index, value)
            results.withLock { $0.append(value) }
        }
        return results.withLock { $0 }
    }

    /// `parallelMap(window:_:completed:)` that keeps no result after `completed` has had it:
    /// memory stays bounded by `window` results however long the input (a listing streamed
    /// in buffers of a few hundred kilobytes).
    package func parallelForEach<T: Sendable>(
        window: Int, _ transform: @Sendable (Element) -> T,
        completed: @Sendable (Int, T) -> Void
    ) {
        let input = self
        let workers = Swift.max(1, Swift.min(activeProcessorCount, count))
        // Elements are taken a few at a time (one permit, one counter step, one store of their
        // results per chunk): per element, the locks were most of a small file's cost. Chunks
        // stay small against the window and the input, so one slow element holds back little.
        let chunk = Swift.max(1, Swift.min(16, window / (4 * workers), count / (4 * workers)))
        let chunks = (count + chunk - 1) / chunk
        let nextChunk = Atomic<Int>(0)
        // One permit per chunk taken and not yet completed: at most `window` elements ahead.
        let chunksInFlight = Swift.max(1, window / chunk)
        let permits = DispatchSemaphore(value: chunksInFlight)
        // Results wait here from their worker to their completion, element `i` in slot
        // `i % capacity`: the chunks taken and not completed are consecutive and at most
        // `chunksInFlight`, so a slot is taken out before a later chunk can reuse it — memory
        // bounded by the window, not the input (a listing of a million files).
        let capacity = Swift.min(count, chunksInFlight * chunk)
        let results = Mutex<[T?]>([T?](repeating: nil, count: capacity))
        let nextToComplete = Mutex<Int>(0)
        // Results stored since the completing thread last looked: a worker that finds another
        // thread completing leaves its results to it and goes on reading (waiting for the lock
        // left a core idle while the other wrote out both threads' results).
        let stored = Atomic<Int>(0)
        WorkerThreads.run(workers) { _ in
            // This worker's chunk of results, then the ready results it completes.
            var values: [T] = []
            values.reserveCapacity(chunk)
            while true {
                permits.wait()
                let taken = nextChunk.add(1, ordering: .relaxed).oldValue
                if taken >= chunks {
                    permits.signal()
                    break
                }
                let start = taken * chunk
                releasingAutoreleasedObjects {
                    for index in start..<Swift.min(input.count, start + chunk) {
                        values.append(transform(input[index]))
                    }
                }
                results.withLock { results in
                    for (offset, value) in values.enumerated() { results[(start + offset) % capacity] = value }
                }
                values.removeAll(keepingCapacity: true)
                stored.add(1, ordering: .sequentiallyConsistent)
                // Whoever holds the lock completes every ready result in order. It looks again
                // after letting go when results were stored meanwhile: their worker may have
                // found the lock taken and gone on.
                while stored.load(ordering: .sequentiallyConsistent) > 0 {
                    let completing: Void? = nextToComplete.withLockIfAvailable { position in
                        stored.store(0, ordering: .sequentiallyConsistent)
                        results.withLock { results in
                            while position + values.count < input.count,
                                let ready = results[(position + values.count) % capacity].take()
                            {
                                values.append(ready)
                            }
                        }
                        for value in values {
                            completed(position, value)
                            position += 1
                            if position % chunk == 0 || position == input.count { permits.signal() }
                        }
                        values.removeAll(keepingCapacity: true)
                    }
                    if completing == nil { break }
                }
            }
        }
    }
}

/// Runs `body` in an autorelease pool of its own on Darwin. A worker runs its whole share of
/// the input on its thread, whose pool is drained no sooner than the thread ends: anything
/// Foundation's Objective-C side autoreleases while reading a file would stay until the pass
/// ends. Elsewhere nothing is autoreleased.
@inline(__always)
func releasingAutoreleasedObjects<T>(_ body: () throws -> T) rethrows -> T {
    #if canImport(ObjectiveC)
    try autoreleasepool(invoking: body)
    #else
    try body()
    #endif
}

/// Cores available to this process.
package var activeProcessorCount: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
