import Foundation

/// A JSON tree for formats whose shape is fixed by someone else (SARIF, GitLab), serialised
/// with sorted keys so output is deterministic.
package enum JSONValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    var foundationObject: Any {
        switch self {
        case .string(let value): value
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? Int(value) as Any : value
        case .bool(let value): value
        case .null: NSNull()
        case .array(let values): values.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }

    package func serialized() -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: foundationObject,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
            ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
