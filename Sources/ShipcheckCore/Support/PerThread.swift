import Foundation

/// Scratch kept per thread, in the thread's dictionary, and reused from file to file: a read
/// buffer, a regex engine's match block.
enum PerThread {
    /// This thread's value for `key`, made by `make` the first time.
    static func value<Value: AnyObject>(_ key: String, _ make: () -> Value) -> Value {
        let dictionary = Thread.current.threadDictionary
        if let value = dictionary[key] as? Value { return value }
        let value = make()
        dictionary[key] = value
        return value
    }
}
