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
        let utf8 = name.utf8
        guard let first = utf8.first else { return false }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "@") {
            return utf8.dropFirst().first.map { $0 == UInt8(ascii: "s") || $0 == UInt8(ascii: "S") || $0 == UInt8(ascii: "e") } ?? false
        }
        return name.hasPrefix("_T0") || name.hasPrefix("_$s") || name.hasPrefix("_$S")
    }

    /// Whether a symbol looks like an Itanium C++ mangled name.
    public static func isCxx(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// The demangled name, or nil when `name` is not a Swift or C++ mangled name the demanglers accept.
    public static func demangle(_ name: String, style: DemangleStyle = .full) -> String? {
        switch style {
        case .none: return nil
        case .full: return demangleFull(name)
        case .simplified:
            guard let full = demangleFull(name) else { return nil }
            return isSwift(name) ? SimplifiedDemangling.simplify(full) : full
        }
    }

    private static func demangleFull(_ name: String) -> String? {
        if isSwift(name) { return demangleSwift(name) }
        if isCxx(name) { return demangleCxx(name) }
        return nil
    }

    public static func demangleSwift(_ name: String) -> String? {
        name.withCString { pointer -> String? in
            // The runtime's demangler crashes on some malformed names; the C shim turns that
            // fault into "not demangled" (the name is shown as it is, like any it rejects).
            guard let result = shipcheck_swift_demangle(pointer, strlen(pointer)) else { return nil }
            defer { free(result) }
            let text = String(cString: result)
            return text == name ? nil : TypeSugar.apply(text)
        }
    }

    public static func demangleCxx(_ name: String) -> String? {
        name.withCString { pointer -> String? in
            var status: Int32 = 0
            guard let result = shipcheck_cxa_demangle(pointer, &status) else { return nil }
            defer { free(result) }
            return status == 0 ? String(cString: result) : nil
        }
    }
}
