import BinaryReaderCore

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
    package static func isSwift(_ name: String) -> Bool { isSwift(name[...]) }

    /// Whether a symbol looks like an Itanium C++ mangled name.
    package static func isCxx(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// The demangled name, or nil when `name` is not a Swift or C++ mangled name the demanglers accept.
    package static func demangle(_ name: String, style: DemangleStyle = .full) -> String? {
        var bytes: [UInt8] = []
        return demangle(name[...], style: style, appendingTo: &bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Appends the demangled name's bytes to `output` and returns true, or returns false and
    /// appends nothing: a listing formats hundreds of thousands of names into its buffers
    /// without a string for each (and hands over names past their `_` as substrings).
    package static func demangle(_ name: Substring, style: DemangleStyle, appendingTo output: inout [UInt8]) -> Bool {
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
        var bytes: [UInt8] = []
        return demangleSwift(name[...], appendingTo: &bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    package static func demangleCxx(_ name: String) -> String? {
        var bytes: [UInt8] = []
        return DemanglerCalls.cxx(name[...], appendingTo: &bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    private static func isSwift(_ name: Substring) -> Bool { mangling(of: name) == .swift }

    private enum Mangling { case swift, cxx }

    /// Which demangler a name is for, from its first three bytes (read once: this runs for
    /// every name of a listing).
    private static func mangling(of name: Substring) -> Mangling? {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), let second = bytes.next() else { return nil }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "@") {
            return second == UInt8(ascii: "s") || second == UInt8(ascii: "S") || second == UInt8(ascii: "e")
                ? .swift : nil
        }
        guard first == UInt8(ascii: "_") else { return nil }
        if second == UInt8(ascii: "Z") { return .cxx }
        guard let third = bytes.next() else { return nil }
        return (second == UInt8(ascii: "T") && third == UInt8(ascii: "0"))
            || (second == UInt8(ascii: "$") && (third == UInt8(ascii: "s") || third == UInt8(ascii: "S")))
            ? .swift : nil
    }

    private static func demangleFull(_ name: Substring, appendingTo output: inout [UInt8]) -> Bool {
        switch mangling(of: name) {
        case .swift: demangleSwift(name, appendingTo: &output)
        case .cxx: DemanglerCalls.cxx(name, appendingTo: &output)
        case nil: false
        }
    }

    /// The runtime's demangler crashes on some malformed names; the C shim turns that fault into
    /// "not demangled" (the name is shown as it is, like any it rejects). Its output is sugared
    /// in place, as `swift-demangle` prints it.
    private static func demangleSwift(_ name: Substring, appendingTo output: inout [UInt8]) -> Bool {
        let start = output.count
        guard DemanglerCalls.swift(name, appendingTo: &output) else { return false }
        TypeSugar.apply(to: &output, from: start)
        return true
    }
}
