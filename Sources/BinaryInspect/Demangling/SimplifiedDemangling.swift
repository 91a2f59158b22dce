/// Shortens a fully demangled Swift name the way `swift-demangle --simplified` does in spirit
/// (the runtime's `swift_demangle` only offers the full form):
///
/// - `generic specialization <...> of f` → `specialized f` (also function signature
///   specializations);
/// - the `Swift.` module qualifier is dropped (`Swift.Int` → `Int`);
/// - `(extension in M):` qualifiers and private discriminators `(in _0123…)` are dropped;
/// - ` with unmangled suffix "…"` is dropped.
public enum SimplifiedDemangling {
    public static func simplify(_ full: String) -> String {
        var text = full
        for prefix in ["generic specialization <", "function signature specialization <"] {
            text = replacingBracketed(in: text, opening: prefix, with: "specialized ", closingOf: " of ")
        }
        text = removingQualifiers(text)
        if let suffix = text.range(of: " with unmangled suffix ") { text = String(text[..<suffix.lowerBound]) }
        return text
    }

    /// Replaces `prefix…> of ` (with balanced `<>` inside) by `replacement`.
    private static func replacingBracketed(in text: String, opening prefix: String, with replacement: String, closingOf separator: String) -> String {
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
    private static func removingQualifiers(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.count)
        var index = text.startIndex
        var previous: Character = " "
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("Swift."), !(previous.isLetter || previous.isNumber || previous == "_" || previous == ".") {
                index = text.index(index, offsetBy: 6)
                continue
            }
            if rest.hasPrefix("(extension in "), let close = rest.range(of: "):") {
                index = close.upperBound
                continue
            }
            if rest.hasPrefix("(in _"), let close = rest.firstIndex(of: ")") {
                index = text.index(after: close)
                continue
            }
            previous = text[index]
            output.append(previous)
            index = text.index(after: index)
        }
        return output
    }
}
