/// Expands `$(NAME)`, `${NAME}` and `$NAME` references in a build-setting value.
///
/// Names come from `variables` (for example `SRCROOT` → the folder holding the `.xcodeproj`);
/// `$(inherited)` is not expanded here (see `EffectiveBuildSettings`). Unknown names are left
/// as written so callers can tell an unresolved path from a real one. Operators such as
/// `$(NAME:lower)` are applied for the common `lower`, `upper`, `base`, `dir`, `file` and
/// `standardizepath`; others leave the value unchanged.
package enum BuildSettingExpansion {
    package static func expand(_ text: String, variables: [String: String], depth: Int = 0) -> String {
        guard text.contains("$"), depth < 16 else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "$" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let next = text.index(after: index)
            guard next < text.endIndex else {
                output.append(character)
                break
            }
            let opener = text[next]
            if opener == "(" || opener == "{" {
                let closer: Character = opener == "(" ? ")" : "}"
                guard let end = matchingClose(in: text, from: text.index(after: next), open: opener, close: closer)
                else {
                    output.append(contentsOf: text[index...])
                    break
                }
                let inner = expand(String(text[text.index(after: next)..<end]), variables: variables, depth: depth + 1)
                output += resolve(inner, variables: variables, original: String(text[index...end]), depth: depth)
                index = text.index(after: end)
            } else if opener.isLetter || opener == "_" {
                var end = next
                while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
                    end = text.index(after: end)
                }
                output += resolve(
                    String(text[next..<end]), variables: variables, original: String(text[index..<end]), depth: depth)
                index = end
            } else {
                output.append(character)
                index = next
            }
        }
        return output
    }

    private static func resolve(_ reference: String, variables: [String: String], original: String, depth: Int)
        -> String
    {
        let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first, let raw = variables[name] else { return original }
        var value = expand(raw, variables: variables, depth: depth + 1)
        if parts.count == 2 {
            for operation in parts[1].split(separator: ",") {
                switch operation {
                case "lower": value = value.lowercased()
                case "upper": value = value.uppercased()
                case "dir": value = value.contains("/") ? String(value[...value.lastIndex(of: "/")!]) : "./"
                case "file": value = value.split(separator: "/").last.map(String.init) ?? value
                case "base":
                    let file = value.split(separator: "/").last.map(String.init) ?? value
                    value = file.contains(".") ? String(file[..<file.lastIndex(of: ".")!]) : file
                case "standardizepath": value = XcodePath.normalize(value)
                default: break
                }
            }
        }
        return value
    }

    private static func matchingClose(in text: String, from start: String.Index, open: Character, close: Character)
        -> String.Index?
    {
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }
}

/// Path arithmetic on `/`-separated strings (no file system access).
package enum XcodePath {
    /// Joins `path` to `base` unless it is absolute, then normalises `.` and `..`.
    package static func resolve(_ path: String, relativeTo base: String) -> String {
        if path.hasPrefix("/") || base.isEmpty { return normalize(path) }
        return normalize(base + "/" + path)
    }

    /// Removes `.` components, empty components and `..` where a parent is known.
    package static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The folder part of `path` (`.` when there is none).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
