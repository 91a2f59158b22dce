import ShipcheckCore

/// The scalar entries of a property list's top-level dictionary, as text (`true` / `false` for
/// booleans), plus the sizes of its arrays: what the bundle rules ask of Info.plist files,
/// entitlements and provisioning profiles, in a `Sendable` shape. Nested dictionaries are kept
/// one level down under `key.subkey` (a profile's `Entitlements`).
package struct PropertyListSummary: Sendable, Hashable {
    package var values: [String: String] = [:]
    package var arrayCounts: [String: Int] = [:]
    /// Arrays of dictionaries, each flattened the same way (an xcframework's `AvailableLibraries`).
    package var dictionaryArrays: [String: [[String: String]]] = [:]

    package init(values: [String: String] = [:], arrayCounts: [String: Int] = [:]) {
        self.values = values
        self.arrayCounts = arrayCounts
    }

    /// Whether a boolean entry is true (`<true/>`).
    package func isTrue(_ key: String) -> Bool { values[key] == "true" }

    /// Parses an XML or binary property list whose root is a dictionary. `what` names the
    /// document in the error ("Info.plist", "the entitlements").
    package static func parse(_ bytes: some Collection<UInt8>, what: String) throws(PropertyListError)
        -> PropertyListSummary
    {
        PropertyListSummary(try PropertyListValue.parseDictionary(bytes, what: what))
    }

    /// The summary of a dictionary already read.
    package init(_ dictionary: [String: PropertyListValue]) {
        add(dictionary, prefix: "", depth: 0)
    }

    private mutating func add(_ dictionary: [String: PropertyListValue], prefix: String, depth: Int) {
        for (key, value) in dictionary {
            let name = prefix + key
            if let text = value.scalarText {
                values[name] = text
            } else if let array = value.array {
                arrayCounts[name] = array.count
                let dictionaries = array.compactMap(\.dictionary)
                if !dictionaries.isEmpty {
                    dictionaryArrays[name] = dictionaries.map { entry in entry.compactMapValues(\.scalarText) }
                }
            } else if let nested = value.dictionary, depth == 0 {
                add(nested, prefix: name + ".", depth: depth + 1)
            }
        }
    }
}

/// Why a property list (or its envelope) could not be read: the caller names the file.
package struct PropertyListError: Error, Sendable {
    package var message: String
}
