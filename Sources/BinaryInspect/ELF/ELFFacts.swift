/// The build facts and libraries an ELF image states, in ELF's terms: what the ELF adapter
/// reports and what the rule examples' `needed` / `autolink` / `build-id` lines stand for
/// (kept apart from the libelf-based reader, so examples work where ELF support is not built).
enum ELFFacts {
    static func needed(_ soname: String) -> LinkedLibrary {
        LinkedLibrary(name: soname, kind: .loaded, record: "DT_NEEDED", section: ".dynamic")
    }

    static func autolink(_ entry: String) -> LinkedLibrary {
        LinkedLibrary(
            name: entry, kind: .autolink, record: ".swift1_autolink_entries", section: ".swift1_autolink_entries")
    }

    static func buildID(_ hex: String) -> BuildFact {
        BuildFact(
            message: "build-id \(hex)", section: ".note.gnu.build-id",
            fix: "none needed: record it to match crash reports to this build", identity: "build-id")
    }

    /// `.comment` lines: compiler and linker identification (nil when there are none).
    static func toolchain(_ comments: [String]) -> BuildFact? {
        let tools = comments.filter { !$0.isEmpty }
        guard !tools.isEmpty else { return nil }
        return BuildFact(
            message: "built with: \(tools.joined(separator: "; "))", section: ".comment", fix: "none needed",
            identity: "comment")
    }

    /// `.debug_*` sections (nil when there are none).
    static func debugSections(_ sections: [(name: String, size: UInt64)]) -> BuildFact? {
        guard let first = sections.first else { return nil }
        let total = sections.reduce(0) { $0 + $1.size }
        return BuildFact(
            message:
                "not stripped: \(sections.count) debug sections, \(total) bytes (\(sections.map(\.name).joined(separator: ", ")))",
            section: first.name,
            fix: "strip release artifacts (keep the debug info separately, e.g. objcopy --only-keep-debug)",
            identity: "debug-sections")
    }
}
