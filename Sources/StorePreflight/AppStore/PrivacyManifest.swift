import BinaryInspect
import Foundation
import ShipcheckCore

/// A `PrivacyInfo.xcprivacy` read and checked: which required-reason categories it declares with
/// which reasons, and what in it is not valid. App Store Connect refuses a manifest whose keys
/// or values are not valid ("Keys and values in your app's privacy manifests must be valid":
/// ITMS-91056, ITMS-91108 for manifests in other places), so every problem is kept, with where
/// it is in the property list. XML and binary property lists are read alike.
package struct PrivacyManifest: Sendable, Hashable, Codable {
    /// Declared categories and their reason codes (only the codes that exist for the category).
    package var declared: [RequiredReasonCategory: [String]] = [:]
    /// What is not valid, each naming the key path (`NSPrivacyAccessedAPITypes[1].NSPrivacyAccessedAPITypeReasons`).
    package var problems: [String] = []

    package init(declared: [RequiredReasonCategory: [String]] = [:], problems: [String] = []) {
        self.declared = declared
        self.problems = problems
    }

    static let topLevelKeys: Set = [
        "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"
    ]
    static let collectedDataKeys: Set = [
        "NSPrivacyCollectedDataType", "NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking",
        "NSPrivacyCollectedDataTypePurposes"
    ]
    /// `NSPrivacyCollectedDataTypePurposes` values ("Describing data use in privacy manifests").
    package static let purposes: Set = [
        "NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising",
        "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising",
        "NSPrivacyCollectedDataTypePurposeAnalytics", "NSPrivacyCollectedDataTypePurposeProductPersonalization",
        "NSPrivacyCollectedDataTypePurposeAppFunctionality", "NSPrivacyCollectedDataTypePurposeOther"
    ]

    /// Reads a manifest's bytes. A file that is not a property list, or whose root is not a
    /// dictionary, is one problem (and declares nothing).
    package init(bytes: some Collection<UInt8>) {
        guard let root = PropertyListReader.propertyList(from: bytes) else {
            self.init(problems: ["not a property list (XML or binary)"])
            return
        }
        self.init(root: root)
    }

    /// Checks a manifest already read (Foundation's types: String, NSNumber or Bool, Array,
    /// Dictionary).
    package init(root: Any) {
        guard let dictionary = root as? [String: Any] else {
            problems = ["the root is not a dictionary"]
            return
        }
        for key in dictionary.keys.sorted() where !Self.topLevelKeys.contains(key) {
            problems.append("\(key) is not a privacy manifest key")
        }
        if let tracking = dictionary["NSPrivacyTracking"], !Self.isBoolean(tracking) {
            problems.append("NSPrivacyTracking is not a boolean")
        }
        let domains = dictionary["NSPrivacyTrackingDomains"]
        if let domains, !((domains as? [Any])?.allSatisfy { $0 is String } ?? false) {
            problems.append("NSPrivacyTrackingDomains is not an array of strings")
        }
        if let tracking = dictionary["NSPrivacyTracking"], Self.isBoolean(tracking),
            (tracking as? NSNumber)?.boolValue == true,
            (domains as? [Any])?.isEmpty ?? true
        {
            problems.append("NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain")
        }
        if let collected = dictionary["NSPrivacyCollectedDataTypes"] { readCollectedData(collected) }
        if let accessed = dictionary["NSPrivacyAccessedAPITypes"] { readAccessedAPIs(accessed) }
    }

    /// The dictionaries of the array at `key`, each with its place (`KEY[2]`); what is not one is a problem.
    private mutating func dictionaries(_ value: Any, key: String) -> [(place: String, entry: [String: Any])] {
        guard let entries = value as? [Any] else {
            problems.append("\(key) is not an array")
            return []
        }
        return entries.enumerated().compactMap { index, entry in
            guard let entry = entry as? [String: Any] else {
                problems.append("\(key)[\(index)] is not a dictionary")
                return nil
            }
            return ("\(key)[\(index)]", entry)
        }
    }

    private mutating func readCollectedData(_ value: Any) {
        for (place, entry) in dictionaries(value, key: "NSPrivacyCollectedDataTypes") {
            for key in entry.keys.sorted() where !Self.collectedDataKeys.contains(key) {
                problems.append("\(place).\(key) is not a key of collected data")
            }
            if !(entry["NSPrivacyCollectedDataType"] is String) {
                problems.append("\(place) has no NSPrivacyCollectedDataType string")
            }
            for key in ["NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking"]
            where !(entry[key].map(Self.isBoolean) ?? false) {
                problems.append("\(place).\(key) is missing or not a boolean")
            }
            guard let purposes = entry["NSPrivacyCollectedDataTypePurposes"] as? [Any] else {
                problems.append("\(place).NSPrivacyCollectedDataTypePurposes is missing or not an array")
                continue
            }
            for purpose in purposes where !Self.purposes.contains(purpose as? String ?? "") {
                problems.append(
                    "\(place).NSPrivacyCollectedDataTypePurposes holds '\(purpose)', which is not a purpose")
            }
        }
    }

    private mutating func readAccessedAPIs(_ value: Any) {
        for (place, entry) in dictionaries(value, key: "NSPrivacyAccessedAPITypes") {
            for key in entry.keys.sorted()
            where key != "NSPrivacyAccessedAPIType" && key != "NSPrivacyAccessedAPITypeReasons" {
                problems.append("\(place).\(key) is not a key of an accessed API type")
            }
            guard let name = entry["NSPrivacyAccessedAPIType"] as? String else {
                problems.append("\(place) has no NSPrivacyAccessedAPIType string")
                continue
            }
            guard let category = RequiredReasonCategory(rawValue: name) else {
                problems.append("\(place).NSPrivacyAccessedAPIType '\(name)' is not a required reason API category")
                continue
            }
            guard let reasons = entry["NSPrivacyAccessedAPITypeReasons"] as? [Any], !reasons.isEmpty else {
                problems.append("\(place) (\(category.title)) lists no NSPrivacyAccessedAPITypeReasons")
                continue
            }
            var valid: [String] = []
            for reason in reasons {
                guard let code = reason as? String else {
                    problems.append("\(place).NSPrivacyAccessedAPITypeReasons holds a value that is not a string")
                    continue
                }
                if category.reasons.contains(where: { $0.code == code }) {
                    valid.append(code)
                } else if let other = RequiredReasonCategory.category(ofReason: code) {
                    problems.append(
                        "\(place) declares reason \(code) for \(category.title), but \(code) is a reason of \(other.title)"
                    )
                } else {
                    problems.append(
                        "\(place) declares reason \(code), which is not an approved reason of \(category.title) (\(category.reasons.map(\.code).joined(separator: ", ")))"
                    )
                }
            }
            declared[category, default: []] += valid
        }
    }

    /// A plist `<true/>` / `<false/>` (numbers and booleans both arrive as NSNumber).
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        // An integer bridges to Bool too (`1 as? Bool`): ask for the object, not the cast.
        // swift-corelibs-foundation keeps one NSNumber for each boolean (a Swift Bool bridges
        // to them too), as CoreFoundation keeps kCFBooleanTrue / kCFBooleanFalse.
        return number === NSNumber(value: true) || number === NSNumber(value: false)
        #endif
    }

    /// The reasons that let `category` count as declared by this manifest: an app's own
    /// manifest may not use the reasons only third-party SDKs may declare.
    package func reasons(for category: RequiredReasonCategory, declaredByApp: Bool) -> [String] {
        let codes = declared[category] ?? []
        guard declaredByApp else { return codes }
        let sdkOnly = Set(category.reasons.filter(\.sdkOnly).map(\.code))
        return codes.filter { !sdkOnly.contains($0) }
    }
}
