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
        if count < 2 { return map(transform) }
        let results = Mutex<[T?]>(Array<T?>(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        let input = self
        DispatchQueue.concurrentPerform(iterations: Swift.min(activeProcessorCount, count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= input.count { break }
                let value = transform(input[index])
                results.withLock { $0[index] = value }
            }
        }
        return results.withLock { $0.map { $0! } }
    }
}

/// Cores available to this process.
public var activeProcessorCount: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
