#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths compared as strings, with `.`, `..` and repeated slashes folded and nothing else
/// changed. Not `NSString.standardizingPath`: on Darwin it drops a leading `/private` whenever
/// the shorter path exists (`/private/tmp/repo` becomes `/tmp/repo`), while `getcwd` keeps it,
/// so every file in `/tmp` or `$TMPDIR` looked outside the current directory there.
package enum LexicalPath {
    /// `path` made absolute against `directory` (itself absolute), then folded.
    package static func absolute(_ path: String, in directory: String) -> String {
        var components: [Substring] = []
        for component in ((path.hasPrefix("/") ? "" : directory + "/") + path).split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// `path` relative to `directory` (`"."` for the directory itself), or nil when it lies
    /// outside. Compared as folded strings first, then with symbolic links resolved, so a path
    /// through a link (`/tmp/repo/a.swift` on a Mac, where `/tmp` links to `/private/tmp`) is
    /// inside the directory it reaches.
    package static func relative(_ path: String, to directory: String) -> String? {
        let base = absolute(directory, in: "/")
        let target = absolute(path, in: base)
        if let inside = descendant(target, of: base) { return inside }
        guard let realBase = resolved(base), let realTarget = resolved(target) else { return nil }
        return descendant(realTarget, of: realBase)
    }

    private static func descendant(_ path: String, of directory: String) -> String? {
        if path == directory { return "." }
        let prefix = directory == "/" ? "/" : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// `realpath` of the path, or of its deepest existing ancestor with the rest appended (an
    /// operand may name a file that does not exist). Unlike Foundation's
    /// `resolvingSymlinksInPath()`, which drops a leading `/private` on Darwin, it keeps what
    /// `getcwd` and SwiftPM print.
    package static func resolved(_ path: String) -> String? {
        var head = path
        var tail: [Substring] = []
        while head != "/" {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return tail.isEmpty ? base : absolute(tail.reversed().joined(separator: "/"), in: base)
            }
            guard let slash = head.lastIndex(of: "/") else { return nil }
            tail.append(head[head.index(after: slash)...])
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
        return tail.isEmpty ? "/" : absolute(tail.reversed().joined(separator: "/"), in: "/")
    }
}
