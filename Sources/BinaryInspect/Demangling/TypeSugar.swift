import ShipcheckCore

/// The runtime's `swift_demangle` prints `Swift.Array<T>`, `Swift.Optional<T>` and
/// `Swift.Dictionary<K, V>`; `swift-demangle` (and Xcode) print the sugared `[T]`, `T?` and
/// `[K : V]`. This rewrites the former into the latter so our names match the reference tool.
enum TypeSugar {
    /// The three forms. Their spellings are static strings, not arrays: names are sugared on
    /// every core at once, and an array's reference count would be retained and released from
    /// all of them.
    private enum Kind {
        case array, optional, dictionary

        var prefix: StaticString {
            switch self {
            case .array: "Swift.Array<"
            case .optional: "Swift.Optional<"
            case .dictionary: "Swift.Dictionary<"
            }
        }

        /// The form `text` starts with.
        init?(startOf text: some Collection<UInt8>) {
            if text.starts(with: TypeSugar.bytes(Kind.array.prefix)) {
                self = .array
            } else if text.starts(with: TypeSugar.bytes(Kind.optional.prefix)) {
                self = .optional
            } else if text.starts(with: TypeSugar.bytes(Kind.dictionary.prefix)) {
                self = .dictionary
            } else {
                return nil
            }
        }
    }

    /// What every form starts with.
    private static let swiftPrefix: StaticString = "Swift."

    private static func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends `name` to `output`, sugared.
    static func apply(_ name: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        guard containsForm(name) else {
            output.append(contentsOf: name)
            return
        }
        output += rewrite(Array(name)[...])
    }

    /// Whether a form occurs: each `Swift.` memmem finds is checked for what follows it. This
    /// runs once per demangled symbol (hundreds of thousands), and most names hold no form.
    private static func containsForm(_ name: UnsafeRawBufferPointer) -> Bool {
        let swift = bytes(swiftPrefix)
        var from = 0
        while let at = ByteSearch.find(swift, in: name, from: from) {
            if Kind(startOf: name[at...]) != nil { return true }
            from = at + swift.count
        }
        return false
    }

    private static func rewrite(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            // Every form starts with `S`: the bytes up to the next one are copied in one go.
            let nextS = bytes[index...].firstIndex(of: UInt8(ascii: "S")) ?? bytes.endIndex
            if nextS > index {
                output += bytes[index..<nextS]
                index = nextS
                continue
            }
            if let kind = Kind(startOf: bytes[index...]),
               // Only at the start of a type name, not inside a longer identifier (MySwift.Array<).
               index == bytes.startIndex || !isIdentifier(bytes[index - 1]),
               let close = matchingClose(bytes, from: index + kind.prefix.utf8CodeUnitCount) {
                let inner = rewrite(bytes[(index + kind.prefix.utf8CodeUnitCount)..<close])
                switch kind {
                case .array:
                    output.append(UInt8(ascii: "["))
                    output += inner
                    output.append(UInt8(ascii: "]"))
                case .optional where needsParentheses(inner):
                    output.append(UInt8(ascii: "("))
                    output += inner
                    output += ")?".utf8
                case .optional:
                    output += inner
                    output.append(UInt8(ascii: "?"))
                case .dictionary:
                    guard let comma = topLevelComma(inner) else { output += inner; break }
                    output.append(UInt8(ascii: "["))
                    output += inner[..<comma]
                    output += " : ".utf8
                    output += inner[(comma + 2)...]
                    output.append(UInt8(ascii: "]"))
                }
                index = close + 1
                continue
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
