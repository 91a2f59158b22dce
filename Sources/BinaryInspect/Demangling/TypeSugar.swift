import ShipcheckCore

/// The runtime's `swift_demangle` prints `Swift.Array<T>`, `Swift.Optional<T>` and
/// `Swift.Dictionary<K, V>`; `swift-demangle` (and Xcode) print the sugared `[T]`, `T?` and
/// `[K : V]`. This rewrites the former into the latter so our names match the reference tool.
enum TypeSugar {
    private static let forms: [(prefix: [UInt8], kind: Kind)] = [
        (Array("Swift.Array<".utf8), .array), (Array("Swift.Optional<".utf8), .optional),
        (Array("Swift.Dictionary<".utf8), .dictionary),
    ]

    private enum Kind { case array, optional, dictionary }

    /// What every form starts with.
    private static let swiftPrefix = Array("Swift.".utf8)

    static func apply(_ text: String) -> String {
        var text = text
        let sugared = text.withUTF8 { containsForm(UnsafeRawBufferPointer($0)) }
        guard sugared else { return text }
        return String(decoding: rewrite(Array(text.utf8)[...]), as: UTF8.self)
    }

    /// Whether a form occurs: each `Swift.` memmem finds is checked for what follows it. This
    /// runs once per demangled symbol (hundreds of thousands), and most names hold no form.
    private static func containsForm(_ bytes: UnsafeRawBufferPointer) -> Bool {
        swiftPrefix.withUnsafeBytes { swift in
            var from = 0
            while let at = ByteSearch.find(swift, in: bytes, from: from) {
                let rest = bytes[(at + swift.count)...]
                if forms.contains(where: { rest.starts(with: $0.prefix[swift.count...]) }) { return true }
                from = at + swift.count
            }
            return false
        }
    }

    private static func rewrite(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        outer: while index < bytes.endIndex {
            // Every form starts with `S`: other bytes are copied without trying them.
            guard bytes[index] == UInt8(ascii: "S") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            for form in forms where bytes[index...].starts(with: form.prefix) {
                // Only at the start of a type name, not inside a longer identifier (MySwift.Array<).
                if index > bytes.startIndex, isIdentifier(bytes[index - 1]) { break }
                let innerStart = index + form.prefix.count
                guard let close = matchingClose(bytes, from: innerStart) else { break }
                let inner = rewrite(bytes[innerStart..<close])
                switch form.kind {
                case .array: output += [UInt8(ascii: "[")] + inner + [UInt8(ascii: "]")]
                case .optional:
                    output += needsParentheses(inner) ? [UInt8(ascii: "(")] + inner + Array(")?".utf8) : inner + [UInt8(ascii: "?")]
                case .dictionary:
                    guard let comma = topLevelComma(inner) else { output += inner; break }
                    output += [UInt8(ascii: "[")] + inner[..<comma] + Array(" : ".utf8) + inner[(comma + 2)...] + [UInt8(ascii: "]")]
                }
                index = close + 1
                continue outer
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2E
    }

    /// The `>` closing the `<` just before `start`, skipping the `>` of `->`.
    private static func matchingClose(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var depth = 1
        var index = start
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: ">") where !(index > start && bytes[index - 1] == UInt8(ascii: "-")):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    private static func topLevelComma(_ bytes: [UInt8]) -> Int? {
        var depth = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ">") where !(index > 0 && bytes[index - 1] == UInt8(ascii: "-")): depth -= 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0 && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: " "): return index
            default: break
            }
        }
        return nil
    }

    /// `(() -> ())?`, `(any P)?`, `(A & B)?`: a space at the top level means the type needs them.
    private static func needsParentheses(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ">") where !(index > 0 && bytes[index - 1] == UInt8(ascii: "-")): depth -= 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: " ") where depth == 0: return true
            default: break
            }
        }
        return false
    }
}
