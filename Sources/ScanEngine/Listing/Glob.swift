/// A path pattern in the gitignore dialect: `*` matches within one path component, `**`
/// matches any number of components, `?` one character, `[abc]` / `[!a-z]` a class.
/// A pattern with no `/` matches the last component anywhere (`*.rst`); one with a `/`
/// is anchored at the root (`Docs/**`). A leading `!` negates (used in include/exclude lists).
/// A pattern naming a directory also matches everything below it (`Fixtures` ≡ `Fixtures/**`).
package struct Glob: Sendable, Hashable, CustomStringConvertible {
    package let pattern: String
    package let isNegated: Bool
    /// The pattern's components, as bytes (paths are matched a byte at a time).
    private let components: [[UInt8]]
    private let matchesAnyDepth: Bool

    package init(_ pattern: String) {
        self.pattern = pattern
        var body = Substring(pattern)
        isNegated = body.hasPrefix("!")
        if isNegated { body = body.dropFirst() }
        if body.hasPrefix("./") { body = body.dropFirst(2) }
        while body.hasSuffix("/") { body = body.dropLast() }
        let anchored = body.hasPrefix("/") || body.dropLast().contains("/")
        if body.hasPrefix("/") { body = body.dropFirst() }
        matchesAnyDepth = !anchored
        components = body.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
    }

    package var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) or one of its parent directories matches.
    package func matches(_ path: String) -> Bool {
        matches(path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }[...], prefixOK: true)
    }

    /// Whether the path whose components are `parts` matches itself, not through a parent
    /// directory: how a .gitignore line is tried on each entry of a walk (`IgnoreRules`), which
    /// does not enter an ignored directory. A trailing `**` then needs something below
    /// (`Pods/**` matches what is inside `Pods`, not `Pods`).
    func matchesEntry(_ parts: ArraySlice<[UInt8]>) -> Bool {
        matches(parts, prefixOK: false)
    }

    private func matches(_ parts: ArraySlice<[UInt8]>, prefixOK: Bool) -> Bool {
        if matchesAnyDepth {
            // Unanchored: the pattern may start at any component.
            for start in parts.indices where Glob.match(components[...], parts[start...], prefixOK: prefixOK) {
                return true
            }
            return false
        }
        return Glob.match(components[...], parts, prefixOK: prefixOK)
    }

    /// Component-wise match; `prefixOK` lets a pattern that ends early match a parent directory.
    private static func match(_ pattern: ArraySlice<[UInt8]>, _ path: ArraySlice<[UInt8]>, prefixOK: Bool) -> Bool {
        guard let head = pattern.first else { return path.isEmpty || prefixOK }
        if head == Array("**".utf8) {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return prefixOK || !path.isEmpty }
            var tail = path
            while true {
                if match(rest, tail, prefixOK: prefixOK) { return true }
                if tail.isEmpty { return false }
                tail = tail.dropFirst()
            }
        }
        guard let component = path.first, matchComponent(head[...], component[...]) else { return false }
        return match(pattern.dropFirst(), path.dropFirst(), prefixOK: prefixOK)
    }

    /// fnmatch-style match of one path component.
    static func matchComponent(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var starP: Int? = nil, starT = 0
        while t < text.endIndex {
            if p < pattern.endIndex {
                let c = pattern[p]
                if c == UInt8(ascii: "*") {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if c == UInt8(ascii: "?") {
                    p += 1
                    t += 1
                    continue
                }
                if c == UInt8(ascii: "["), let (matched, next) = matchClass(pattern, from: p, byte: text[t]) {
                    if matched {
                        p = next
                        t += 1
                        continue
                    }
                } else if c == UInt8(ascii: "\\"), p + 1 < pattern.endIndex {
                    if pattern[p + 1] == text[t] {
                        p += 2
                        t += 1
                        continue
                    }
                } else if c == text[t] {
                    p += 1
                    t += 1
                    continue
                }
            }
            guard let star = starP else { return false }
            p = star + 1
            starT += 1
            t = starT
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }

    /// Matches `[...]` at `start`; returns nil when the class is unterminated (then `[` is literal).
    private static func matchClass(_ pattern: ArraySlice<UInt8>, from start: Int, byte: UInt8) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < pattern.endIndex, pattern[index] == UInt8(ascii: "!") || pattern[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.endIndex {
            let c = pattern[index]
            if c == UInt8(ascii: "]"), !first { return (matched != negated, index + 1) }
            first = false
            if index + 2 < pattern.endIndex, pattern[index + 1] == UInt8(ascii: "-"),
                pattern[index + 2] != UInt8(ascii: "]")
            {
                if byte >= c && byte <= pattern[index + 2] { matched = true }
                index += 3
            } else {
                if byte == c { matched = true }
                index += 1
            }
        }
        return nil
    }
}

/// An ordered include / exclude list with `!` negation: the last matching pattern wins,
/// as in .gitignore. A path no pattern matches gets `defaultValue`.
package struct GlobList: Sendable, Hashable {
    package var globs: [Glob]

    package init(_ patterns: [String]) { globs = patterns.map(Glob.init) }

    package var isEmpty: Bool { globs.isEmpty }

    /// Whether the last matching pattern is a positive one; `defaultValue` when none matches.
    package func matches(_ path: String, defaultValue: Bool = false) -> Bool {
        lastMatch(path).map { !$0.isNegated } ?? defaultValue
    }

    /// The pattern that decides about `path` (the last one matching it), or nil when none does.
    package func lastMatch(_ path: String) -> Glob? {
        globs.last { $0.matches(path) }
    }
}
