import Foundation

/// What git's `ls-files --exclude-standard` leaves out of a work tree, read from the ignore
/// files themselves, for the walk `FileEnumerator` falls back to when git cannot run: inside
/// SwiftPM's plugin sandbox on macOS `/usr/bin/git` is an xcrun shim that refuses to, and a
/// walk that ignored `.gitignore` audited `.build/checkouts`, `Pods` and every build product.
///
/// The rules, lowest precedence first (the last line matching a path decides, as in git): the
/// user's `core.excludesFile` at its default place (`$XDG_CONFIG_HOME/git/ignore`, else
/// `~/.config/git/ignore`; a path configured in git's config files is not read), the
/// repository's `info/exclude`, then the `.gitignore` of each directory from the work tree's
/// top down. A line is a `Glob` (`*`, `?`, `[…]`, `**`, `\` escapes) anchored at its file's
/// directory when it holds a `/` before its end, else matching a name at any depth; `!`
/// re-includes, a trailing `/` matches directories only. An ignored directory is not entered,
/// so nothing below it can be re-included, as in git. Files git tracks although a rule
/// matches them are left out here (the index is git's to read).
package struct IgnoreRules: Sendable {
    /// One line of an ignore file.
    struct Rule: Sendable {
        let glob: Glob
        let isNegated: Bool
        let directoryOnly: Bool
        /// How many components of a path (relative to the work tree's top) name the directory
        /// of the file the line is in: the glob is matched against the rest.
        let depth: Int
    }

    /// The rules read so far, lowest precedence first.
    private var rules: [Rule] = []
    /// The walked root relative to the work tree's top, as components.
    private let rootComponents: [[UInt8]]
    /// The root itself lies in an ignored directory: git lists nothing untracked there.
    private var ignoresEverything = false

    /// The rules for a walk of `root`, or nil when no directory from `root` up holds a `.git`
    /// (then git would ignore nothing either).
    package init?(forWalkOf root: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard
            let resolved = LexicalPath.resolved(
                LexicalPath.absolute(root, in: FileManager.default.currentDirectoryPath)),
            let top = Self.workTreeTop(containing: resolved)
        else { return nil }
        rootComponents = resolved.dropFirst(top.count).split(separator: "/").map { Array($0.utf8) }
        if let user = Self.userExcludesFile(environment) { read(user, depth: 0) }
        if let gitDirectory = Self.commonGitDirectory(top: top) { read(gitDirectory + "/info/exclude", depth: 0) }
        // The `.gitignore` files above the root; the walk reads the root's and those below it.
        var directory = top
        for (depth, component) in rootComponents.enumerated() {
            read(directory + "/.gitignore", depth: depth)
            directory += "/" + String(decoding: component, as: UTF8.self)
            if matches(Array(rootComponents[...depth]), isDirectory: true) { ignoresEverything = true }
        }
    }

    /// These rules and the `.gitignore` of `directory` (bytes relative to the root), for the
    /// entries below it.
    func entering(_ directory: [UInt8], at path: String) -> IgnoreRules {
        var rules = self
        rules.read(path + "/.gitignore", depth: rootComponents.count + Self.components(of: directory).count)
        return rules
    }

    /// Whether the entry at `relative` (bytes relative to the root) is ignored.
    func ignores(_ relative: [UInt8], isDirectory: Bool) -> Bool {
        ignoresEverything || matches(rootComponents + Self.components(of: relative), isDirectory: isDirectory)
    }

    /// Whether the last rule matching `components` (relative to the work tree's top) ignores it.
    private func matches(_ components: [[UInt8]], isDirectory: Bool) -> Bool {
        for rule in rules.reversed() where (isDirectory || !rule.directoryOnly) && rule.depth < components.count {
            if rule.glob.matchesEntry(components[rule.depth...]) { return !rule.isNegated }
        }
        return false
    }

    private static func components(of relative: [UInt8]) -> [[UInt8]] {
        relative.split(separator: UInt8(ascii: "/")).map(Array.init)
    }

    /// Appends the lines of the ignore file at `path` (none when it cannot be read: most
    /// directories have no `.gitignore`; git does not follow a symlinked one either).
    private mutating func read(_ path: String, depth: Int) {
        guard var text = try? SafeFileReader.read(path) else { return }
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        for line in text.split(separator: UInt8(ascii: "\n")) {
            if let rule = Self.rule(line, depth: depth) { rules.append(rule) }
        }
    }

    /// One line as a rule: nil for a blank line or a comment.
    static func rule(_ line: ArraySlice<UInt8>, depth: Int) -> Rule? {
        var line = line
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        // Trailing spaces go unless a backslash quotes one.
        while line.last == UInt8(ascii: " "), line.dropLast().last != UInt8(ascii: "\\") { line.removeLast() }
        guard let first = line.first, first != UInt8(ascii: "#") else { return nil }
        let isNegated = first == UInt8(ascii: "!")
        if isNegated { line.removeFirst() }
        let directoryOnly = line.last == UInt8(ascii: "/")
        while line.last == UInt8(ascii: "/") { line.removeLast() }
        guard !line.isEmpty else { return nil }
        // A `!` left after the negation's is a character of the name (`Glob` would negate).
        let pattern = (line.first == UInt8(ascii: "!") ? "\\" : "") + String(decoding: line, as: UTF8.self)
        return Rule(glob: Glob(pattern), isNegated: isNegated, directoryOnly: directoryOnly, depth: depth)
    }

    /// The nearest directory from `directory` up that holds a `.git` (a folder, or the file a
    /// linked worktree or submodule has).
    private static func workTreeTop(containing directory: String) -> String? {
        var candidate = directory
        while true {
            if FileKind.of(candidate + "/.git") != nil { return candidate == "/" ? "" : candidate }
            guard candidate != "/", let slash = candidate.lastIndex(of: "/") else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// The git directory whose `info/exclude` applies: `top/.git`, or for a `.git` file
    /// (`gitdir: …`) the directory it names, or that one's `commondir` (a linked worktree
    /// shares its repository's).
    private static func commonGitDirectory(top: String) -> String? {
        let dotGit = top + "/.git"
        guard FileKind.of(dotGit) == .regular else { return dotGit }
        guard let pointer = textLine(dotGit), pointer.hasPrefix("gitdir: ") else { return nil }
        let gitDirectory = LexicalPath.absolute(
            String(pointer.dropFirst("gitdir: ".count)), in: top.isEmpty ? "/" : top)
        guard let common = textLine(gitDirectory + "/commondir") else { return gitDirectory }
        return LexicalPath.absolute(common, in: gitDirectory)
    }

    /// The first line of a small text file, nil when it cannot be read.
    private static func textLine(_ path: String) -> String? {
        guard let bytes = try? SafeFileReader.read(path, sizeLimit: 65_536) else { return nil }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    /// git's default `core.excludesFile`.
    private static func userExcludesFile(_ environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/git/ignore" }
        return environment["HOME"].map { $0 + "/.config/git/ignore" }
    }
}
