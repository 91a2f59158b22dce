import CDemangle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of a demangled name to show.
package enum DemangleStyle: String, Sendable, CaseIterable {
    /// Everything the demangler says (like `swift-demangle` and `c++filt`).
    case full
    /// Shorter Swift names (see `SimplifiedDemangling`); C++ names as in full.
    case simplified
    /// Mangled names only.
    case none
}

/// In-process demangling of Swift and C++ (Itanium) names: no subprocesses, no pipes.
package enum Demangler {
    /// Whether a symbol looks like a Swift mangled name (`$s`, `$S`, `_T0`, `$e` prefixes).
    package static func isSwift(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isSwift(UnsafeRawBufferPointer($0)) }
    }

    /// Whether a symbol looks like an Itanium C++ mangled name.
    package static func isCxx(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// The demangled name, or nil when `name` is not a Swift or C++ mangled name the demanglers accept.
    package static func demangle(_ name: String, style: DemangleStyle = .full) -> String? {
        var name = name
        return name.withUTF8 { demangle(utf8: UnsafeRawBufferPointer($0), style: style) }
    }

    /// The same for a name's UTF-8 bytes, which need not end in a NUL: a symbol listing hands
    /// over names past their `_` without making a string of each.
    package static func demangle(utf8 name: UnsafeRawBufferPointer, style: DemangleStyle = .full) -> String? {
        var bytes: [UInt8] = []
        return demangle(utf8: name, style: style, appendingTo: &bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Appends the demangled name's bytes to `output` and returns true, or returns false and
    /// appends nothing: a listing formats hundreds of thousands of names into its buffers
    /// without a string for each.
    package static func demangle(
        utf8 name: UnsafeRawBufferPointer, style: DemangleStyle, appendingTo output: inout [UInt8]
    ) -> Bool {
        switch style {
        case .none: return false
        case .full: return demangleFull(name, appendingTo: &output)
        case .simplified:
            guard isSwift(name) else { return demangleFull(name, appendingTo: &output) }
            var full: [UInt8] = []
            guard demangleSwift(name, appendingTo: &full) else { return false }
            output += SimplifiedDemangling.simplify(String(decoding: full, as: UTF8.self)).utf8
            return true
        }
    }

    package static func demangleSwift(_ name: String) -> String? {
        var name = name
        var bytes: [UInt8] = []
        return name.withUTF8 { demangleSwift(UnsafeRawBufferPointer($0), appendingTo: &bytes) }
            ? String(decoding: bytes, as: UTF8.self) : nil
    }

    package static func demangleCxx(_ name: String) -> String? {
        var name = name
        var bytes: [UInt8] = []
        return name.withUTF8 { demangleCxx(UnsafeRawBufferPointer($0), appendingTo: &bytes) }
            ? String(decoding: bytes, as: UTF8.self) : nil
    }

    private static func isSwift(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= 2 else { return false }
        if name[0] == UInt8(ascii: "$") || name[0] == UInt8(ascii: "@") {
            return name[1] == UInt8(ascii: "s") || name[1] == UInt8(ascii: "S") || name[1] == UInt8(ascii: "e")
        }
        guard name.count >= 3, name[0] == UInt8(ascii: "_") else { return false }
        return (name[1] == UInt8(ascii: "T") && name[2] == UInt8(ascii: "0"))
            || (name[1] == UInt8(ascii: "$") && (name[2] == UInt8(ascii: "s") || name[2] == UInt8(ascii: "S")))
    }

    private static func isCxx(_ name: UnsafeRawBufferPointer) -> Bool {
        name.count >= 2 && name[0] == UInt8(ascii: "_") && name[1] == UInt8(ascii: "Z")
    }

    private static func demangleFull(_ name: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> Bool {
        if isSwift(name) { return demangleSwift(name, appendingTo: &output) }
        if isCxx(name) { return demangleCxx(name, appendingTo: &output) }
        return false
    }

    private static func demangleSwift(_ name: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> Bool {
        guard let base = name.baseAddress else { return false }
        // The runtime's demangler crashes on some malformed names; the C shim turns that
        // fault into "not demangled" (the name is shown as it is, like any it rejects). Its
        // result is malloc'd: with a buffer that is too small, swift_demangle copies past it.
        guard let result = shipcheck_swift_demangle(base.assumingMemoryBound(to: CChar.self), name.count) else {
            return false
        }
        defer { free(result) }
        let demangled = UnsafeRawBufferPointer(start: result, count: strlen(result))
        // The demangler hands back names it does not understand unchanged.
        if demangled.count == name.count, memcmp(result, base, demangled.count) == 0 { return false }
        TypeSugar.apply(demangled, appendingTo: &output)
        return true
    }

    private static func demangleCxx(_ name: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> Bool {
        // __cxa_demangle wants a NUL-terminated name.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { terminated -> Bool in
            UnsafeMutableRawBufferPointer(terminated).copyMemory(from: name)
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
