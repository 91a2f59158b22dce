import Foundation
import ScanEngine
import ShipcheckCore

/// A property list as Foundation's `PropertyListSerialization` reads it (XML, binary, and the
/// old OpenStep text form), kept whole in a `Sendable` shape: what the pre-flight rules read of
/// `Info.plist` files and privacy manifests (nested dictionaries and arrays included).
package indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Parses an XML, binary or OpenStep property list. `what` names the document in the error
    /// ("Info.plist", "the entitlements"); the caller names the file.
    package static func parse(_ bytes: some Collection<UInt8>, what: String) throws(PropertyListError)
        -> PropertyListValue
    {
        let bytes = Array(bytes)
        if let problem = PropertyListReader.binaryProblem(bytes) {
            throw PropertyListError(message: "\(what) is not a property list: the binary form \(problem)")
        }
        let root: Any
        do {
            root = try PropertyListCall.object(from: Data(bytes))
        } catch {
            throw PropertyListError(message: "\(what) is not a property list")
        }
        guard let value = PropertyListValue(foundation: root) else {
            throw PropertyListError(message: "\(what) holds a value that is not a property-list type")
        }
        return value
    }

    /// Parses a property list whose root must be a dictionary.
    package static func parseDictionary(_ bytes: some Collection<UInt8>, what: String) throws(PropertyListError)
        -> [String: PropertyListValue]
    {
        guard case .dictionary(let dictionary) = try parse(bytes, what: what) else {
            throw PropertyListError(message: "\(what) is not a dictionary property list")
        }
        return dictionary
    }

    /// Recursive, and bounded: Foundation refuses documents nested deeper than its limit and
    /// binary ones whose objects refer back to themselves (Tests/Fixtures/fuzz-regressions/bundle).
    init?(foundation value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let number as NSNumber:
            if Self.isBoolean(number) {
                self = .boolean(number.boolValue)
            } else if ["d", "f"].contains(PropertyListCall.typeEncoding(of: number)) {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.intValue)
            }
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(Array(data))
        case let array as [Any]:
            var items: [PropertyListValue] = []
            for item in array {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, item) in dictionary {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        default: return nil
        }
    }

    /// A plist's `<true/>` / `<false/>` (numbers and booleans both arrive as NSNumber).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return PropertyListCall.typeEncoding(of: number) == "c" || type(of: number as Any) == Bool.self
        #endif
    }

    package var string: String? { if case .string(let text) = self { text } else { nil } }
    package var array: [PropertyListValue]? { if case .array(let items) = self { items } else { nil } }
    package var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { entries } else { nil }
    }

    /// An entry of a dictionary (nil for other values).
    package subscript(key: String) -> PropertyListValue? { dictionary?[key] }

    /// A scalar as text (`true` / `false` for booleans, numbers as written); nil for
    /// collections, dates and data.
    package var scalarText: String? {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .real(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .boolean(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}

/// A property-list file the walker found (`PrivacyInfo.xcprivacy`): its contents, or why they
/// could not be read — for rules that report an unreadable document as a finding of their own.
package enum PropertyListDocument: Sendable, Hashable {
    case parsed(PropertyListValue)
    case unreadable(String)

    package var value: PropertyListValue? { if case .parsed(let value) = self { value } else { nil } }
}
