/// A place in a text file. Lines and columns are 1-based; columns count UTF-8 bytes,
/// which is what compilers, Xcode and SARIF consumers expect by default.
package struct SourceLocation: Codable, Sendable, Hashable {
    /// Path relative to the scanned root (or as the user gave it), with `/` separators.
    package var path: String
    package var line: Int
    package var column: Int
    package var endLine: Int?
    package var endColumn: Int?

    package init(path: String, line: Int, column: Int = 1, endLine: Int? = nil, endColumn: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
    }
}

/// A place in a compiled artifact: which file (universal-file slice, archive member), section,
/// symbol and offset.
package struct BinaryLocation: Codable, Sendable, Hashable {
    package var path: String
    /// Archive member name when the finding is inside a static library.
    package var member: String?
    /// The slice of a universal (fat) Mach-O file (`arm64`, `x86_64`), nil for thin files.
    package var architecture: String?
    package var section: String?
    package var symbol: String?
    /// Offset of the symbol or record inside the file (or member, or slice).
    package var offset: UInt64?

    package init(
        path: String, member: String? = nil, architecture: String? = nil, section: String? = nil, symbol: String? = nil,
        offset: UInt64? = nil
    ) {
        self.path = path
        self.member = member
        self.architecture = architecture
        self.section = section
        self.symbol = symbol
        self.offset = offset
    }
}

/// Where a finding is: in a text file, in a binary, or only in a file as a whole.
package enum Location: Codable, Sendable, Hashable {
    case source(SourceLocation)
    case binary(BinaryLocation)
    /// A whole file (or a path that does not exist), with no line.
    case file(path: String)

    package var path: String {
        switch self {
        case .source(let location): location.path
        case .binary(let location): location.path
        case .file(let path): path
        }
    }

    /// The same place with `path` made relative to `root` when it lies below it, so findings
    /// about files opened as `root/…` read like every other finding of a scan of `root`.
    package func relative(to root: String) -> Location {
        let relative = Location.path(path, relativeTo: root)
        switch self {
        case .source(var location):
            location.path = relative
            return .source(location)
        case .binary(var location):
            location.path = relative
            return .binary(location)
        case .file: return .file(path: relative)
        }
    }

    /// `path` (as opened, under `root`) relative to `root`; unchanged when it is not below it.
    /// The one way every check turns a path it opened into the path reports show.
    package static func path(_ path: String, relativeTo root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard root != ".", path.hasPrefix(prefix) else { return path }
        return String(path.dropFirst(prefix.count))
    }

    /// The line to show, where there is one.
    package var line: Int? {
        if case .source(let location) = self { return location.line }
        return nil
    }
}
