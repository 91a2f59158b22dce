/// The shape of a JSON report, written out piece by piece: its small parts are serialised whole,
/// its long arrays (findings, results) one element at a time, so the report is never held
/// whole as text. The layout is the pretty printer's (two-space indentation, `"key" : value`,
/// keys in order), so a streamed document reads as one serialised at once.
package indirect enum JSONOutline {
    /// A value serialised on its own (pretty-printed, at no indentation).
    case serialized(String)
    /// Members by key; keys are the reporters' own names, written as they are.
    case object([String: JSONOutline])
    case array([JSONOutline])
    /// `count` elements, each serialised only when it is written.
    case elements(count: Int, element: (Int) -> String)

    package static func value(_ value: JSONValue) -> JSONOutline { .serialized(value.serialized()) }

    /// Writes the document and a final newline.
    package func write(to sink: ReportSink) {
        write(to: sink, indent: "")
        sink.write("\n")
    }

    private func write(to sink: ReportSink, indent: String) {
        let inner = indent + "  "
        switch self {
        case .serialized(let text):
            sink.write(Self.indented(text, by: indent))
        case .object(let members):
            sink.write("{\n")
            for (index, key) in members.keys.sorted().enumerated() {
                sink.write((index == 0 ? "" : ",\n") + inner + "\"" + key + "\" : ")
                members[key]!.write(to: sink, indent: inner)
            }
            sink.write("\n" + indent + "}")
        case .array(let elements):
            Self.writeArray(count: elements.count, to: sink, indent: indent) {
                elements[$0].write(to: sink, indent: inner)
            }
        case .elements(let count, let element):
            Self.writeArray(count: count, to: sink, indent: indent) {
                sink.write(Self.indented(element($0), by: inner))
            }
        }
    }

    /// `[`, the elements one per line, `]`; an empty array keeps its blank line, as
    /// Foundation's pretty printer writes it.
    private static func writeArray(count: Int, to sink: ReportSink, indent: String, element: (Int) -> Void) {
        sink.write("[\n")
        for index in 0..<count {
            sink.write((index == 0 ? "" : ",\n") + indent + "  ")
            element(index)
        }
        sink.write("\n" + indent + "]")
    }

    /// `text` with every line after its first indented, but for the blank line of an empty
    /// array (JSON text holds no raw line breaks in strings, so each one is the pretty printer's).
    private static func indented(_ text: String, by indent: String) -> String {
        guard !indent.isEmpty, text.contains("\n") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            index == 0 || line.isEmpty ? String(line) : indent + line
        }.joined(separator: "\n")
    }
}
