import ScanEngine

/// One line of an example text form (`BinaryContents(example:)`, `BundleContents(example:)`,
/// `AndroidArtifact(example:)`, `ReleasePairExample`): a keyword and its values, one fact a line.
/// The forms share how a line is numbered, split and named in an error; what a keyword means is
/// each parser's.
package struct ExampleLine: Sendable {
    /// 1-based, blank lines counted: the line as the example shows it.
    package var number: Int
    package var text: Substring

    package init(number: Int, text: Substring) {
        self.number = number
        self.text = text
    }

    /// The lines of `text` that are not empty.
    package static func lines(of text: String) -> [ExampleLine] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            line.isEmpty ? nil : ExampleLine(number: index + 1, text: line)
        }
    }

    /// The space-separated fields; the first is the keyword.
    package var fields: [String] { text.split(separator: " ").map(String.init) }

    /// What follows the keyword and the space after it, spaces kept (a path or a string may hold
    /// them); empty when the line is the keyword alone.
    package var rest: Substring {
        let keyword = text.firstIndex { $0 != " " } ?? text.endIndex
        return text[(text[keyword...].firstIndex(of: " ") ?? text.endIndex)...].dropFirst()
    }

    /// An input error naming the line: `MESSAGE: LINE`.
    package func error(_ message: String) -> InputError {
        InputError(path: "example", line: number, message: "\(message): \(text)")
    }

    /// `KEY=VALUE` or bare `KEY` fields, the value nil for a bare key.
    package static func options(_ fields: some Sequence<String>) -> [(String, String?)] {
        fields.map(option)
    }

    /// `KEY=VALUE` fields; a field without a value is an error naming the line.
    package func pairs(_ fields: some Sequence<String>) throws(InputError) -> [String: String] {
        var pairs: [String: String] = [:]
        for field in fields {
            guard case (let key, let value?) = Self.option(field) else {
                throw error("KEY=VALUE expected, not '\(field)'")
            }
            pairs[key] = value
        }
        return pairs
    }

    /// A `KEY=VALUE` or bare `KEY` field.
    package static func option(_ field: String) -> (String, String?) {
        let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts.first ?? field, parts.count > 1 ? parts[1] : nil)
    }
}
