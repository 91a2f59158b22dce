import ScanEngine
import ShipcheckCore

/// The store's YAML: read with `YAMLMapping`, written by a small deterministic emitter
/// (fixed key order, defaults left out, one key per line) so the file reviews and diffs well.
package enum QueryStoreFormat {
    static let queryKeys = [
        "name", "description", "pattern", "kind", "case-sensitive", "whole-word", "include", "exclude", "severity",
        "expect"
    ]

    package static func parse(_ text: String, file: String) throws(InputError) -> [SavedQuery] {
        let top = try YAMLMapping.parse(text, file: file)
        try top.requireKeys(in: ["queries"])
        var queries: [SavedQuery] = []
        var lines: [String: Int] = [:]
        for entry in try top.mappingList("queries") ?? [] {
            let query = try parseQuery(entry)
            let line = entry.line(of: "name")
            if let first = lines[query.name] {
                throw InputError(
                    path: file, line: line,
                    message: "duplicate query name '\(query.name)' (first defined on line \(first))")
            }
            lines[query.name] = line ?? 0
            queries.append(query)
        }
        return queries
    }

    static func parseQuery(_ entry: YAMLMapping) throws(InputError) -> SavedQuery {
        try entry.requireKeys(in: queryKeys)
        func required(_ key: String) throws(InputError) -> String {
            guard let value = try entry.string(key) else {
                throw InputError(
                    path: entry.file, line: entry.mapping.first?.key.mark?.line,
                    message: "'\(entry.context)' has no '\(key)'")
            }
            return value
        }
        let name = try required("name")
        if let problem = SavedQuery.problem(withName: name) {
            throw InputError(path: entry.file, line: entry.line(of: "name"), message: problem)
        }
        var query = SavedQuery(name: name, pattern: try required("pattern"))
        query.description = try entry.string("description") ?? ""
        if let kind = try entry.string("kind") {
            guard let value = SavedQuery.Kind(rawValue: kind) else {
                throw InputError(
                    path: entry.file, line: entry.line(of: "kind"),
                    message: "'\(entry.context).kind' must be literal or regex")
            }
            query.kind = value
        }
        query.caseSensitive = try entry.bool("case-sensitive") ?? true
        query.wholeWord = try entry.bool("whole-word") ?? false
        query.include = try entry.stringList("include") ?? []
        query.exclude = try entry.stringList("exclude") ?? []
        if let severity = try entry.string("severity") {
            guard let value = Severity(rawValue: severity) else {
                throw InputError(
                    path: entry.file, line: entry.line(of: "severity"),
                    message: "'\(entry.context).severity' must be error, warning or note")
            }
            query.severity = value
        }
        if let expect = try entry.string("expect") {
            guard expect == "none" else {
                throw InputError(
                    path: entry.file, line: entry.line(of: "expect"),
                    message: "'\(entry.context).expect' can only be 'none'")
            }
            query.expectNone = true
        }
        if let problem = query.patternProblem() {
            throw InputError(path: entry.file, line: entry.line(of: "pattern"), message: problem)
        }
        return query
    }

    package static func render(_ queries: [SavedQuery]) -> String {
        var out = "# Saved queries for `shipcheck query`: edit with the command or by hand.\n"
        if queries.isEmpty { return out + "queries: []\n" }
        out += "queries:\n"
        for query in queries {
            out += "  - name: \(scalar(query.name))\n"
            if !query.description.isEmpty { out += "    description: \(scalar(query.description))\n" }
            out += "    pattern: \(scalar(query.pattern))\n"
            out += "    kind: \(query.kind.rawValue)\n"
            if !query.caseSensitive { out += "    case-sensitive: false\n" }
            if query.wholeWord { out += "    whole-word: true\n" }
            for (key, globs) in [("include", query.include), ("exclude", query.exclude)] where !globs.isEmpty {
                out += "    \(key):\n"
                for glob in globs { out += "      - \(scalar(glob))\n" }
            }
            if let severity = query.severity { out += "    severity: \(severity.rawValue)\n" }
            if query.expectNone { out += "    expect: none\n" }
        }
        return out
    }

    /// A YAML scalar that reads back as exactly `text`: plain when nothing in it could be
    /// taken for syntax, single-quoted when printable (backslashes stay readable in
    /// patterns), double-quoted with escapes otherwise.
    static func scalar(_ text: String) -> String {
        if isPlainSafe(text) { return text }
        let printable = text.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value)
                && scalar != "\u{2028}" && scalar != "\u{2029}" && scalar != "\u{FEFF}"
        }
        if printable { return "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{FEFF}"
                {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Words YAML 1.1 or 1.2 resolve to something other than a string.
    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]

    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.utf8.first, first.isASCIILetter else { return false }
        guard !reserved.contains(text.lowercased()) else { return false }
        return text.utf8.allSatisfy {
            $0.isASCIILetter || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: ".")
        }
    }
}
