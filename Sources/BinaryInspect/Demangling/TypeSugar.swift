/// The runtime's `swift_demangle` prints `Swift.Array<T>`, `Swift.Optional<T>` and
/// `Swift.Dictionary<K, V>`; `swift-demangle` (and Xcode) print the sugared `[T]`, `T?` and
/// `[K : V]`. This rewrites the former into the latter so our names match the reference tool.
enum TypeSugar {
    /// The three forms. Their spellings are string literals, not arrays: names are sugared on
    /// every core at once, and an array's reference count would be retained and released from
    /// all of them (a literal has none).
    private enum Kind {
        case array, optional, dictionary

        var prefix: String {
            switch self {
            case .array: "Swift.Array<"
            case .optional: "Swift.Optional<"
            case .dictionary: "Swift.Dictionary<"
            }
        }

        /// The form whose `<` is the last byte of `text` (what comes before it is not looked at).
        init?(endingWith text: some BidirectionalCollection<UInt8>) {
            func ends(_ kind: Kind) -> Bool { text.reversed().starts(with: kind.prefix.utf8.reversed()) }
            if ends(.array) {
                self = .array
            } else if ends(.optional) {
                self = .optional
            } else if ends(.dictionary) {
                self = .dictionary
            } else {
                return nil
            }
        }
    }

    /// Sugars the name that makes up `output` from `start` on, in place.
    static func apply(to output: inout [UInt8], from start: Int) {
        guard let first = firstForm(in: output[start...], from: start) else { return }
        let sugared = rewrite(output[start...], first: first)
        output.replaceSubrange(start..., with: sugared)
    }

    /// The first form in `bytes` whose `<` is at or after `start`, with its start, `<` and
    /// matching `>`. Found from the `<`s: demangled names hold few of them, while `S` and
    /// `Swift.` are everywhere. This runs once per demangled symbol.
    private static func firstForm<Bytes: Collection<UInt8>>(in bytes: Bytes, from start: Bytes.Index) -> (
        kind: Kind, start: Bytes.Index, open: Bytes.Index, close: Bytes.Index
    )?
    where Bytes: BidirectionalCollection, Bytes.Index == Int {
        var search = start
        while let open = bytes[search...].firstIndex(of: UInt8(ascii: "<")) {
            search = open + 1
            guard let kind = Kind(endingWith: bytes[bytes.startIndex...open]) else { continue }
            let formStart = open + 1 - kind.prefix.utf8.count
            // Only at the start of a type name, not inside a longer identifier (MySwift.Array<).
            guard formStart == bytes.startIndex || !isIdentifier(bytes[formStart - 1]) else { continue }
            guard let close = matchingClose(bytes, from: open + 1) else { continue }
            return (kind, formStart, open, close)
        }
        return nil
    }

    /// `bytes` with every form sugared (forms inside forms too); `first` is its first form.
    private static func rewrite(_ bytes: ArraySlice<UInt8>, first: (kind: Kind, start: Int, open: Int, close: Int))
        -> [UInt8]
    {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = bytes.startIndex
        var next: (kind: Kind, start: Int, open: Int, close: Int)? = first
        while let form = next {
            output += bytes[copied..<form.start]
            let innerBytes = bytes[(form.open + 1)..<form.close]
            let inner =
                firstForm(in: innerBytes, from: innerBytes.startIndex).map { rewrite(innerBytes, first: $0) }
                ?? Array(innerBytes)
            switch form.kind {
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
                guard let comma = topLevelComma(inner) else {
                    output += inner
                    break
                }
                output.append(UInt8(ascii: "["))
                output += inner[..<comma]
                output += " : ".utf8
                output += inner[(comma + 2)...]
                output.append(UInt8(ascii: "]"))
            }
            copied = form.close + 1
            next = firstForm(in: bytes, from: copied)
        }
        output += bytes[copied...]
        return output
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2E
    }

    /// The `>` closing the `<` just before `start`, skipping the `>` of `->`.
    private static func matchingClose<Bytes: Collection<UInt8>>(_ bytes: Bytes, from start: Int) -> Int?
    where Bytes.Index == Int {
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
            case UInt8(ascii: ",") where depth == 0 && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: " "):
                return index
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
