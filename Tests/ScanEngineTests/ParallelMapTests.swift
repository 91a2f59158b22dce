import Foundation
import ScanEngine
import Synchronization
import Testing

@Suite struct ParallelMapTests {
    /// What a streaming report relies on: results come out in input order whatever order the
    /// threads finish in, and no element is started more than `window` ahead of the first one
    /// not yet completed.
    /// Small windows hand out one element at a time, larger ones a few (chunks).
    @Test(arguments: [(3, 120), (64, 2000)])
    func completesInInputOrderWithinTheWindow(window: Int, count: Int) {
        let completed = Mutex<[Int]>([])
        let tooFarAhead = Mutex<[Int]>([])
        let input = Array(0..<count)
        let output = input.parallelMap(
            window: window,
            { index -> Int in
                let done = completed.withLock { $0.count }
                if index >= done + window { tooFarAhead.withLock { $0.append(index) } }
                // Uneven work, so later elements often finish first.
                usleep(UInt32((index * 7919) % 5) * (count > 500 ? 20 : 300))
                return index * 2
            },
            completed: { index, value in
                #expect(value == index * 2)
                completed.withLock { $0.append(index) }
            })
        #expect(output == input.map { $0 * 2 })
        #expect(completed.withLock { $0 } == input)
        #expect(tooFarAhead.withLock { $0 }.isEmpty)
    }

    /// The workers are threads of their own (named `shipcheck-work`); work nested in one (an
    /// artifact's libraries in a run over several artifacts) runs on Dispatch's pool rather than
    /// making more of them, and completes as the outer work does.
    @Test func nestedWorkMakesNoMoreWorkerThreads() {
        let workers = Mutex(Set<ObjectIdentifier>())
        @Sendable func noteWorker() {
            guard Thread.current.name == WorkerThreads.threadName else { return }
            workers.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
        }
        let output = Array(0..<8).parallelMap { outer -> [Int] in
            noteWorker()
            return Array(0..<16).parallelMap { inner in
                noteWorker()
                usleep(100)
                return outer * 100 + inner
            }
        }
        #expect(output == (0..<8).map { outer in (0..<16).map { outer * 100 + $0 } })
        let count = workers.withLock { $0.count }
        #expect(count >= 1 && count <= ProcessInfo.processInfo.activeProcessorCount, "\(count) worker threads")
    }

    @Test func emptyInputCompletesNothing() {
        let calls = Mutex(0)
        let output = [Int]().parallelMap(window: 4, { $0 }, completed: { _, _ in calls.withLock { $0 += 1 } })
        #expect(output.isEmpty)
        #expect(calls.withLock { $0 } == 0)
    }
}
