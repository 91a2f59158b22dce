import BinaryInspect

/// What the privacy rules ask of the model beyond its manifests: whether a bundle is asked for
/// required reasons, and the APIs of the tables an image references.
extension BundleContents {
    /// Whether Apple asks required-reason declarations of the bundle's code: every platform but
    /// macOS (and Mac Catalyst); a bundle whose platform is unknown is asked.
    func asksRequiredReasons(of bundle: NestedBundle) -> Bool {
        platform(of: bundle).map(\.isMobileFamily) ?? true
    }
}

extension BundleImage {
    /// What the image references that the tables know, over every read slice: imported C
    /// symbols (functions and Foundation constants), Objective-C classes and selectors, Swift
    /// types of Apple's frameworks. An image imports thousands of names and the tables know a
    /// few hundred: only the names the tables hold are made into references.
    var tableReferences: Set<BinaryReference> {
        var references: Set<BinaryReference> = []
        for slice in readSlices {
            for symbol in slice.importedSymbols.names(withPrefixes: ["$s"]) {
                if let swiftType = Self.swiftTypes.first(where: { symbol.hasPrefix($0.prefix) }) {
                    references.insert(swiftType.reference)
                }
            }
            // `stat$INODE64` is `stat` (the variant the headers pick).
            for name in slice.importedSymbols.members(of: Self.knownSymbols, cutAt: UInt8(ascii: "$")) {
                references.insert(.function(name))
                references.insert(.constant(name))
            }
            for name in slice.classReferences where Self.knownClasses.contains(name) {
                references.insert(.objcClass(name))
            }
            for name in slice.selectorReferences.members(of: Self.knownSelectors) { references.insert(.selector(name)) }
        }
        return references
    }

    /// Every reference the purpose-string and required-reason tables name.
    private static let tableEntries =
        PurposeStrings.requirements.flatMap(\.binary) + RequiredReasonAPIs.apis.map(\.binary)
    /// The C functions and constants, classes and selectors among them, by name.
    private static let knownSymbols = Set(
        tableEntries.compactMap { reference -> String? in
            switch reference {
            case .function(let name), .constant(let name): name
            default: nil
            }
        })
    private static let knownClasses = Set(
        tableEntries.compactMap { reference -> String? in
            if case .objcClass(let name) = reference { name } else { nil }
        })
    private static let knownSelectors = Set(
        tableEntries.compactMap { reference -> String? in
            if case .selector(let name) = reference { name } else { nil }
        })

    /// The Swift types the purpose-string table names, with their symbols' prefix.
    private static let swiftTypes: [(prefix: String, reference: BinaryReference)] =
        PurposeStrings.requirements.flatMap(\.binary).compactMap { reference in
            reference.swiftSymbolPrefix.map { ($0, reference) }
        }

    /// The required reason APIs the image uses, in the table's order.
    var requiredReasonAPIs: [RequiredReasonAPIs.API] {
        let references = tableReferences
        return RequiredReasonAPIs.apis.filter { references.contains($0.binary) }
    }
}
