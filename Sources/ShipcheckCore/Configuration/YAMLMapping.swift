import ScanEngine
import Yams

/// Typed, position-aware access to a YAML mapping: every wrong type or unknown key becomes an
/// `InputError` naming the file, the line and the key. Shared by the config and query stores.
package struct YAMLMapping {
    package let mapping: Node.Mapping
    package let file: String
    /// Dotted key path of this mapping, for messages (`flags`, `queries[2]`).
    package let context: String

    package init(mapping: Node.Mapping, file: String, context: String = "") {
        self.mapping = mapping
        self.file = file
        self.context = context
    }

    /// Parses `text` and returns its top-level mapping (an empty document is an empty mapping).
    package static func parse(_ text: String, file: String) throws(InputError) -> YAMLMapping {
        let node: Node?
        do {
            // No resolver rules and no constructors: every accessor here reads the scalar's text
            // itself, and Yams's default rules compile regular expressions at every start-up
            // (query run, audit; see docs/performance.md).
            node = try Yams.compose(yaml: text, .basic, Constructor([:], [:], [:]))
        } catch let error as YamlError {
            throw Self.describe(error, file: file)
        } catch {
            throw InputError(path: file, message: "invalid YAML: \(error)")
        }
        guard let node else { return YAMLMapping(mapping: Node.Mapping([]), file: file) }
        guard let mapping = node.mapping else {
            throw InputError(
                path: file, line: node.mark?.line, message: "expected a mapping of settings at the top level")
        }
        return YAMLMapping(mapping: mapping, file: file)
    }

    static func describe(_ error: YamlError, file: String) -> InputError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return InputError(path: file, line: mark.line, message: "invalid YAML: \(problem) (column \(mark.column))")
        case .reader(let problem, _, _, _):
            return InputError(path: file, message: "invalid YAML: \(problem)")
        default:
            return InputError(path: file, message: "invalid YAML: \(error)")
        }
    }

    private func qualified(_ key: String) -> String { context.isEmpty ? key : "\(context).\(key)" }

    /// Rejects keys outside `allowed`, naming the first unknown one and its line.
    package func requireKeys(in allowed: [String]) throws(InputError) {
        for (key, _) in mapping {
            guard let text = key.scalar?.string else {
                throw InputError(
                    path: file, line: key.mark?.line,
                    message: "keys in '\(context.isEmpty ? "the top level" : context)' must be strings")
            }
            if !allowed.contains(text) {
                let hint = allowed.map { "'\($0)'" }.joined(separator: ", ")
                throw InputError(
                    path: file, line: key.mark?.line,
                    message: "unknown key '\(qualified(text))' (expected one of \(hint))")
            }
        }
    }

    /// A plain `~`, `null` or empty scalar: YAML's null, never a value the user meant.
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    package func node(_ key: String) -> Node? { mapping[key] }

    package func line(of key: String) -> Int? {
        mapping.first(where: { $0.key.scalar?.string == key })?.key.mark?.line
    }

    package func string(_ key: String) throws(InputError) -> String? {
        guard let node = mapping[key] else { return nil }
        if case .scalar(let scalar) = node, !Self.isNull(scalar) { return scalar.string }
        throw InputError(path: file, line: node.mark?.line, message: "'\(qualified(key))' must be a string")
    }

    /// YAML 1.1's booleans: the spellings of Yams's default bool rule, which took them quoted
    /// too.
    private static let booleans: [String: Bool] = [
        "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true, "on": true, "On": true,
        "ON": true,
        "no": false, "No": false, "NO": false, "false": false, "False": false, "FALSE": false, "off": false,
        "Off": false, "OFF": false
    ]

    package func bool(_ key: String) throws(InputError) -> Bool? {
        guard let node = mapping[key] else { return nil }
        if case .scalar(let scalar) = node, let value = Self.booleans[scalar.string] { return value }
        throw InputError(path: file, line: node.mark?.line, message: "'\(qualified(key))' must be true or false")
    }

    package func int(_ key: String) throws(InputError) -> Int? {
        guard let node = mapping[key] else { return nil }
        if let value = node.int { return value }
        throw InputError(path: file, line: node.mark?.line, message: "'\(qualified(key))' must be a whole number")
    }

    /// A list of strings; a single string is accepted as a one-element list.
    package func stringList(_ key: String) throws(InputError) -> [String]? {
        guard let node = mapping[key] else { return nil }
        if case .scalar(let scalar) = node, !Self.isNull(scalar) { return [scalar.string] }
        guard let sequence = node.sequence else {
            throw InputError(
                path: file, line: node.mark?.line, message: "'\(qualified(key))' must be a list of strings")
        }
        var values: [String] = []
        for item in sequence {
            guard case .scalar(let scalar) = item else {
                throw InputError(
                    path: file, line: item.mark?.line, message: "'\(qualified(key))' must be a list of strings")
            }
            values.append(scalar.string)
        }
        return values
    }

    package func mapping(_ key: String) throws(InputError) -> YAMLMapping? {
        guard let node = mapping[key] else { return nil }
        guard let inner = node.mapping else {
            throw InputError(path: file, line: node.mark?.line, message: "'\(qualified(key))' must be a mapping")
        }
        return YAMLMapping(mapping: inner, file: file, context: qualified(key))
    }

    /// A list of mappings (for stores holding records).
    package func mappingList(_ key: String) throws(InputError) -> [YAMLMapping]? {
        guard let node = mapping[key] else { return nil }
        guard let sequence = node.sequence else {
            throw InputError(path: file, line: node.mark?.line, message: "'\(qualified(key))' must be a list")
        }
        var result: [YAMLMapping] = []
        for (index, item) in sequence.enumerated() {
            guard let inner = item.mapping else {
                throw InputError(
                    path: file, line: item.mark?.line, message: "'\(qualified(key))[\(index)]' must be a mapping")
            }
            result.append(YAMLMapping(mapping: inner, file: file, context: "\(qualified(key))[\(index)]"))
        }
        return result
    }
}
