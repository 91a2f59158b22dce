#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scratch kept per thread and reused from file to file (a read buffer, a regex engine's match
/// block), in a POSIX thread-specific slot: one `pthread_getspecific` per look-up, where
/// Foundation's thread dictionary costs a dictionary search and a cast on every file. Make one
/// slot per kind of value, once (a `static let`); a thread's value is released when it exits.
final class PerThread<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { value in
            // Optional on Linux, not on Darwin: one spelling for both.
            let pointer: UnsafeMutableRawPointer? = value
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        self.key = key
        self.make = make
    }

    /// This thread's value, made the first time this thread asks.
    var value: Value {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue() }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value).toOpaque())
        return value
    }
}
