import CDemangle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of a demangled name to show.
public enum DemangleStyle: String, Sendable, CaseIterable {
    /// Everything the demangler says (like `swift-demangle` and `c++filt`).
    case full
    /// Shorter Swift names (see `SimplifiedDemangling`); C++ names as in full.
    case simplified
    /// Mangled names only.
    case none
}

/// In-process demangling of Swift and C++ (Itanium) names: no subprocesses, no pipes.
public enum Demangler {
    /// Whether a symbol looks like a Swift mangled name (`$s`, `$S`, `_T0`, `$e` prefixes).
    public static func isSwift(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isSwift(UnsafeRawBufferPointer($0)) }
    }

    /// Whether a symbol looks like an Itanium C++ mangled name.
    public static func isCxx(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// The demangled name, or nil when `name` is not a Swift or C++ mangled name the demanglers accept.
    public static func demangle(_ name: String, style: DemangleStyle = .full) -> String? {
        var name = name
        return name.withUTF8 { demangle(utf8: UnsafeRawBufferPointer($0), style: style) }
    }

    /// The same for a name's UTF-8 bytes, which need not end in a NUL: a symbol listing hands
    /// over names past their `_` without making a string of each.
    public static func demangle(utf8 name: UnsafeRawBufferPointer, style: DemangleStyle = .full) -> String? {
        switch style {
        case .none: return nil
        case .full: return demangleFull(name)
        case .simplified:
            guard let full = demangleFull(name) else { return nil }
            return isSwift(name) ? SimplifiedDemangling.simplify(full) : full
        }
    }

    public static func demangleSwift(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { demangleSwift(UnsafeRawBufferPointer($0)) }
    }

    public static func demangleCxx(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { demangleCxx(UnsafeRawBufferPointer($0)) }
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

    private static func demangleFull(_ name: UnsafeRawBufferPointer) -> String? {
        if isSwift(name) { return demangleSwift(name) }
        if isCxx(name) { return demangleCxx(name) }
        return nil
    }

    private static func demangleSwift(_ name: UnsafeRawBufferPointer) -> String? {
        guard let base = name.baseAddress else { return nil }
        // The runtime's demangler crashes on some malformed names; the C shim turns that
        // fault into "not demangled" (the name is shown as it is, like any it rejects).
        guard let result = shipcheck_swift_demangle(base.assumingMemoryBound(to: CChar.self), name.count) else { return nil }
        defer { free(result) }
        let length = strlen(result)
        // The demangler hands back names it does not understand unchanged.
        if length == name.count, memcmp(result, base, length) == 0 { return nil }
        return TypeSugar.apply(String(decoding: UnsafeRawBufferPointer(start: result, count: length), as: UTF8.self))
    }

    private static func demangleCxx(_ name: UnsafeRawBufferPointer) -> String? {
        // __cxa_demangle wants a NUL-terminated name.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { terminated -> String? in
            UnsafeMutableRawBufferPointer(terminated).copyMemory(from: name)
            terminated[name.count] = 0
            var status: Int32 = 0
            guard let result = shipcheck_cxa_demangle(terminated.baseAddress!, &status) else { return nil }
            defer { free(result) }
            return status == 0 ? String(cString: result) : nil
        }
    }
}
