import CDemangle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two demanglers' C calls (`swift_demangle` through the crash-guarded shim, and
/// `__cxa_demangle`), taking a name as a string and appending what they print to a byte array:
/// their pointers and malloc'd results stay here. Which demangler a name goes to, and what is
/// made of the result, is `Demangler`'s business.
package enum DemanglerCalls {
    /// Appends what the Swift runtime's demangler prints for `name` and returns true; false (and
    /// nothing appended) when it rejects the name, crashes on it, or hands it back unchanged
    /// (what it does with names it does not understand).
    package static func swift(_ name: Substring, appendingTo output: inout [UInt8]) -> Bool {
        var name = name
        return name.withUTF8 { name -> Bool in
            guard let base = name.baseAddress else { return false }
            // Its result is malloc'd: with a buffer that is too small, swift_demangle copies past it.
            guard
                let result = shipcheck_swift_demangle(
                    UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), name.count)
            else { return false }
            defer { free(result) }
            let demangled = UnsafeRawBufferPointer(start: result, count: strlen(result))
            if demangled.elementsEqual(UnsafeRawBufferPointer(name)) { return false }
            output.append(contentsOf: demangled)
            return true
        }
    }

    /// Appends what `__cxa_demangle` prints for `name` and returns true; false (and nothing
    /// appended) when it rejects the name.
    package static func cxx(_ name: Substring, appendingTo output: inout [UInt8]) -> Bool {
        var name = name
        return name.withUTF8 { name -> Bool in
            // __cxa_demangle wants a NUL-terminated name.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { terminated -> Bool in
                UnsafeMutableRawBufferPointer(terminated).copyMemory(from: UnsafeRawBufferPointer(name))
                terminated[name.count] = 0
                var status: Int32 = 0
                guard let result = shipcheck_cxa_demangle(terminated.baseAddress!, &status) else { return false }
                defer { free(result) }
                guard status == 0 else { return false }
                output.append(contentsOf: UnsafeRawBufferPointer(start: result, count: strlen(result)))
                return true
            }
        }
    }
}
