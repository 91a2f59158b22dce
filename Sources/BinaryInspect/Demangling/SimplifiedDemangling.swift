/// Shortens a fully demangled Swift name the way `swift-demangle --simplified` does in spirit
/// (the runtime's `swift_demangle` only offers the full form):
///
/// - `generic specialization <...> of f` → `specialized f` (also function signature
///   specializations);
/// - the `Swift.` module qualifier is dropped (`Swift.Int` → `Int`);
/// - `(extension in M):` qualifiers and private discriminators `(in _0123…)` are dropped;
/// - ` with unmangled suffix "…"` is dropped.
package enum SimplifiedDemangling {
    package static func simplify(_ full: String) -> String {
        var text = full
        for prefix in ["generic specialization <", "function signature specialization <"] {
            text = replacingBracketed(in: text, opening: prefix, with: "specialized ", closingOf: " of ")
        }
        text = removingQualifiers(text)
        if let suffix = text.range(of: " with unmangled suffix ") { text = String(text[..<suffix.lowerBound]) }
        return text
    }

    /// Replaces `prefix…> of ` (with balanced `<>` inside) by `replacement`.
    private static func replacingBracketed(
        in text: String, opening prefix: String, with replacement: String, closingOf separator: String
    ) -> String {
        var result = text
        while let start = result.range(of: prefix) {
            var depth = 1
            var index = start.upperBound
            while index < result.endIndex, depth > 0 {
                if result[index] == "<" { depth += 1 } else if result[index] == ">" { depth -= 1 }
                index = result.index(after: index)
            }
            guard depth == 0, result[index...].hasPrefix(separator) else { break }
            let end = result.index(index, offsetBy: separator.count)
            result.replaceSubrange(start.lowerBound..<end, with: replacement)
        }
        return result
    }

    /// Drops `Swift.` where it starts a qualified name, `(extension in M):` and `(in _HEX)`.
    /// Works on UTF-8 bytes: this runs once per symbol.
    private static func removingQualifiers(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var previous = UInt8(ascii: " ")
        while index < bytes.count {
            let rest = bytes[index...]
            if rest.starts(with: swiftPrefix), !isNamePart(previous) {
                index += swiftPrefix.count
                continue
            }
            if rest.starts(with: extensionPrefix), let close = closing(rest, of: Array("):".utf8)) {
                index = close
                continue
            }
            if rest.starts(with: discriminatorPrefix), let close = closing(rest, of: [UInt8(ascii: ")")]) {
                index = close
                continue
            }
            previous = bytes[index]
            output.append(previous)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let swiftPrefix = Array("Swift.".utf8)
    private static let extensionPrefix = Array("(extension in ".utf8)
    private static let discriminatorPrefix = Array("(in _".utf8)

    private static func isNamePart(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2E || byte >= 0x80
    }

    /// The index just past the first `terminator` in `bytes`, or nil.
    private static func closing(_ bytes: ArraySlice<UInt8>, of terminator: [UInt8]) -> Int? {
        var index = bytes.startIndex
        while index + terminator.count <= bytes.endIndex {
            if bytes[index..<index + terminator.count].elementsEqual(terminator) { return index + terminator.count }
            index += 1
        }
        return nil
    }
}
