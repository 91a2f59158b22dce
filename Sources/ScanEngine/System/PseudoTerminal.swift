#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal, for running the command as a person at a terminal does (the CLI tests'
/// colour, headings and progress lines). Here because the calls are C pointer calls.
package enum PseudoTerminal {
    /// A new pseudo-terminal's master and slave descriptors (the caller closes both), or nil
    /// with `errno` set.
    package static func openPair() -> (master: Int32, slave: Int32)? {
        let master = Calls.open(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        guard Calls.grant(master) == 0, Calls.unlock(master) == 0, let name = Calls.slaveName(master) else {
            close(master)
            return nil
        }
        let slave = SystemCalls.openFile(String(cString: name), flags: O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            return nil
        }
        return (master, slave)
    }

    /// The POSIX pseudo-terminal calls. Glibc's module leaves them out (they sit behind
    /// `_XOPEN_SOURCE` in <stdlib.h>), so on Linux they are looked up in the C library itself.
    private enum Calls {
        #if canImport(Glibc)
        private static func function<T>(_ name: String, as type: T.Type) -> T {
            // nil: RTLD_DEFAULT, the global symbol scope.
            guard let symbol = dlsym(nil, name) else {
                preconditionFailure("no \(name) in the C library")
            }
            return unsafeBitCast(symbol, to: type)
        }
        static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        static let slaveName = function("ptsname", as: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
        #else
        // Called through, not stored: a static's value must be Sendable in Swift 6, and whether a
        // stored reference to an imported C function is one rests on the compiler's inference; a
        // call needs none.
        static func open(_ flags: Int32) -> Int32 { posix_openpt(flags) }
        static func grant(_ master: Int32) -> Int32 { grantpt(master) }
        static func unlock(_ master: Int32) -> Int32 { unlockpt(master) }
        static func slaveName(_ master: Int32) -> UnsafePointer<CChar>? { ptsname(master).map { UnsafePointer($0) } }
        #endif
    }
}
