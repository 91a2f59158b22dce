/// The paths a scan is limited to (operands such as the files pre-commit passes), relative
/// to the scanned root. A path matches an operand that names it or one of its directories;
/// no operands means everything.
struct PathFilter: Sendable {
    let operands: [String]

    init(_ paths: [String]) {
        operands = paths.map(Self.normalized)
    }

    var isEverything: Bool { operands.isEmpty || operands.contains("") }

    func matches(_ path: String) -> Bool {
        isEverything || operands.contains { Self.path(path, isUnder: $0) }
    }

    /// Operands no path matched: named files that do not exist in the scanned content.
    func unmatched(by paths: [String]) -> [String] {
        guard !isEverything else { return [] }
        return operands.filter { operand in !paths.contains { Self.path($0, isUnder: operand) } }
    }

    static func path(_ path: String, isUnder operand: String) -> Bool {
        operand.isEmpty || path == operand
            || (path.hasPrefix(operand) && path.utf8.dropFirst(operand.utf8.count).first == UInt8(ascii: "/"))
    }

    /// `./a//b/` → `a/b`; `.` → `` (the whole root).
    static func normalized(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
    }
}
