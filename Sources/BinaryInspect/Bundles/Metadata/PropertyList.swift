import Foundation
import ShipcheckCore

/// The scalar entries of a property list's top-level dictionary, as text (`true` / `false` for
/// booleans), plus the sizes of its arrays: what the bundle rules ask of Info.plist files,
/// entitlements and provisioning profiles, in a `Sendable` shape. Nested dictionaries are kept
/// one level down under `key.subkey` (a profile's `Entitlements`).
public struct PropertyListSummary: Sendable, Hashable {
    public var values: [String: String] = [:]
    public var arrayCounts: [String: Int] = [:]
    /// Arrays of dictionaries, each flattened the same way (an xcframework's `AvailableLibraries`).
    public var dictionaryArrays: [String: [[String: String]]] = [:]

    public init(values: [String: String] = [:], arrayCounts: [String: Int] = [:]) {
        self.values = values
        self.arrayCounts = arrayCounts
    }

    /// Whether a boolean entry is true (`<true/>`).
    public func isTrue(_ key: String) -> Bool { values[key] == "true" }

    /// Parses an XML or binary property list whose root is a dictionary. `what` names the
    /// document in the error ("Info.plist", "the entitlements").
    public static func parse(_ bytes: some Collection<UInt8>, what: String) throws(PropertyListError) -> PropertyListSummary {
        guard let root = PropertyListReader.propertyList(from: bytes) else {
            throw PropertyListError(message: "\(what) is not a property list")
        }
        guard let dictionary = root as? [String: Any] else { throw PropertyListError(message: "\(what) is not a dictionary property list") }
        var summary = PropertyListSummary()
        summary.add(dictionary, prefix: "", depth: 0)
        return summary
    }

    private mutating func add(_ dictionary: [String: Any], prefix: String, depth: Int) {
        for (key, value) in dictionary {
            let name = prefix + key
            if let text = Self.scalar(value) {
                values[name] = text
            } else if let array = value as? [Any] {
                arrayCounts[name] = array.count
                let dictionaries = array.compactMap { $0 as? [String: Any] }
                if !dictionaries.isEmpty {
                    dictionaryArrays[name] = dictionaries.map { entry in entry.compactMapValues(Self.scalar) }
                }
            } else if let nested = value as? [String: Any], depth == 0 {
                add(nested, prefix: name + ".", depth: depth + 1)
            }
        }
    }

    private static func scalar(_ value: Any) -> String? {
        if let text = value as? String { return text }
        guard let number = value as? NSNumber else { return nil }
        return isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue
    }

    /// A plist's `<true/>` / `<false/>` (numbers and booleans both arrive as NSNumber).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return String(cString: number.objCType) == "c" || type(of: number as Any) == Bool.self
        #endif
    }
}

/// Why a property list (or its envelope) could not be read: the caller names the file.
public struct PropertyListError: Error, Sendable {
    public var message: String
}
