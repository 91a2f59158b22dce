/// The colours of shipcheck's text output (terminal SGR codes), one table for both text
/// layouts — the report's and `query run`'s — so a path, a place or an error looks the same in
/// either.
package struct TextColour: Sendable {
    /// The SGR parameters (`1;31`: bold red).
    private let code: String

    private init(_ code: String) { self.code = code }

    package static let error = TextColour("1;31")
    package static let warning = TextColour("1;33")
    package static let note = TextColour("1;34")
    package static let fix = TextColour("1;36")
    /// A file's name over its findings or matches.
    package static let path = TextColour("35")
    /// A `line:col` or `section:0xoffset`.
    package static let place = TextColour("32")
    /// A saved query's name; what `query run` found since the previous run.
    package static let heading = TextColour("1")
    package static let added = TextColour("1;32")
    /// What matched in a line, and what went since the previous run.
    package static let match = error

    /// What turns the colour on, and what turns every colour off.
    package var start: String { "\u{1B}[\(code)m" }
    package static let reset = "\u{1B}[0m"

    /// `text` in this colour when `enabled` (a terminal that wants colour), else as it is.
    package func paint(_ text: String, if enabled: Bool) -> String { enabled ? start + text + Self.reset : text }
}
