/// What a release changes since the one before it, section by section (each empty when nothing
/// in it changed): identity and versions, architectures, images and SDKs, what the app asks
/// for and declares, sizes by part and by section, and the files that grew most. Facts only:
/// judging them is the previous-release rules' work, on the same two `ReleaseFacts`.
package struct ReleaseComparison: Sendable {
    package var old: ReleaseFacts
    package var new: ReleaseFacts
    /// Identifier, version, build, minimum OS, target SDK, platforms, device families.
    package var identity: [ValueChange] = []
    package var architectures: FactChange
    /// Images (file and architecture) added and removed, and those whose size changed.
    package var images: FactChange
    package var changedImages: [ImageChange] = []
    /// The libraries the images load, by module (`XCTest`, `log`), added and removed.
    package var libraries: FactChange
    /// SDKs by name, and those whose version changed (`Alamofire 5.8.0 → 5.9.1`).
    package var sdks: FactChange
    package var sdkVersions: [ValueChange] = []
    /// Permissions, entitlements, usage descriptions, required-reason categories, tracking
    /// domains, exported components, queries: each only when it changed.
    package var declarations: [FactChange] = []
    /// The download and install size of each part, and the totals.
    package var parts: [SizeRow] = []
    package var total: SizeRow
    /// The files added or grown most, largest growth first.
    package var largestGrowth: [SizeRow] = []
    /// How many files were added and removed.
    package var files: FactChange

    /// The most files listed as grown.
    static let grownFilesShown = 10

    package init(old: ReleaseFacts, new: ReleaseFacts) {
        self.old = old
        self.new = new
        identity = Self.identityChanges(old.identity, new.identity)
        architectures = FactChange(name: "architectures", old: old.architectures, new: new.architectures)
        images = FactChange(name: "images", old: old.images.map(\.key), new: new.images.map(\.key))
        libraries = FactChange(name: "libraries", old: old.linkedLibraries, new: new.linkedLibraries)
        let oldImages = Dictionary(old.images.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        changedImages = new.images.compactMap { image in
            guard let before = oldImages[image.key] else { return nil }
            let change = ImageChange(old: before, new: image)
            return change.isEmpty ? nil : change
        }
        sdks = FactChange(name: "SDKs", old: old.sdks.map(\.name), new: new.sdks.map(\.name))
        let oldSDKs = Dictionary(old.sdks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        sdkVersions = new.sdks.compactMap { sdk in
            guard let before = oldSDKs[sdk.name], before.version != sdk.version else { return nil }
            return ValueChange(name: sdk.name, old: before.version, new: sdk.version)
        }
        declarations = [
            FactChange(name: "permissions", old: old.permissions, new: new.permissions),
            FactChange(name: "entitlements", old: old.entitlements, new: new.entitlements),
            FactChange(name: "usage descriptions", old: old.usageDescriptions, new: new.usageDescriptions),
            FactChange(
                name: "required-reason API categories", old: old.requiredReasonCategories,
                new: new.requiredReasonCategories),
            FactChange(name: "tracking domains", old: old.trackingDomains, new: new.trackingDomains),
            FactChange(name: "exported components", old: old.exportedComponents, new: new.exportedComponents),
            FactChange(
                name: "foreground service types", old: old.foregroundServiceTypes, new: new.foregroundServiceTypes),
            FactChange(name: "queries", old: old.queries, new: new.queries)
        ].filter { !$0.isEmpty }
        files = FactChange(name: "files", old: old.entries.map(\.path), new: new.entries.map(\.path))
        (parts, total) = Self.partSizes(old, new)
        largestGrowth = Self.largestGrowth(old, new)
    }

    /// Whether the two releases state the same facts: nothing to show.
    package var isIdentical: Bool {
        identity.isEmpty && architectures.isEmpty && images.isEmpty && changedImages.isEmpty && libraries.isEmpty
            && sdks.isEmpty
            && sdkVersions.isEmpty && declarations.isEmpty && !total.isChanged && files.isEmpty
            && largestGrowth.isEmpty
    }

    private static func identityChanges(_ old: ReleaseFacts.Identity, _ new: ReleaseFacts.Identity) -> [ValueChange] {
        func listed(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ", ") }
        return [
            ValueChange(name: "identifier", old: old.identifier, new: new.identifier),
            ValueChange(name: "version", old: old.version, new: new.version),
            ValueChange(name: "build", old: old.build, new: new.build),
            ValueChange(name: "minimum OS", old: old.minimumOS?.description, new: new.minimumOS?.description),
            ValueChange(name: "target SDK", old: old.targetSDK, new: new.targetSDK),
            ValueChange(name: "platforms", old: listed(old.platforms), new: listed(new.platforms)),
            ValueChange(name: "device families", old: listed(old.deviceFamilies), new: listed(new.deviceFamilies))
        ].filter { $0.old != $0.new }
    }

    /// Each part's sizes in both releases (parts of either), largest new install size first.
    private static func partSizes(_ old: ReleaseFacts, _ new: ReleaseFacts) -> ([SizeRow], SizeRow) {
        func sums(_ facts: ReleaseFacts) -> [String: SizeRow.Sizes] {
            var sums: [String: SizeRow.Sizes] = [:]
            for entry in facts.entries {
                let part = SizeParts.part(of: entry.path, in: facts.family)
                sums[part, default: SizeRow.Sizes()] =
                    sums[part, default: SizeRow.Sizes()]
                    + SizeRow.Sizes(download: entry.download, install: entry.install)
            }
            return sums
        }
        let before = sums(old)
        let after = sums(new)
        let rows = Set(before.keys).union(after.keys).map { part in
            SizeRow(name: part, old: before[part] ?? SizeRow.Sizes(), new: after[part] ?? SizeRow.Sizes())
        }.sorted { ($0.new.install, $1.name) > ($1.new.install, $0.name) }
        let total = SizeRow(
            name: "total", old: before.values.reduce(SizeRow.Sizes(), +), new: after.values.reduce(SizeRow.Sizes(), +))
        return (rows, total)
    }

    /// Files added or grown in the install size, the most grown first.
    private static func largestGrowth(_ old: ReleaseFacts, _ new: ReleaseFacts) -> [SizeRow] {
        let before = Dictionary(old.entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return new.entries.compactMap { entry -> SizeRow? in
            let previous = before[entry.path]
            let row = SizeRow(
                name: entry.path,
                old: SizeRow.Sizes(download: previous?.download ?? 0, install: previous?.install ?? 0),
                new: SizeRow.Sizes(download: entry.download, install: entry.install))
            return row.installGrowth > 0 ? row : nil
        }
        .sorted { ($0.installGrowth, $1.name) > ($1.installGrowth, $0.name) }
        .prefix(grownFilesShown).map { $0 }
    }
}

/// One image (file and architecture) in both releases: its segments' and sections' sizes.
package struct ImageChange: Sendable, Hashable, Encodable {
    package var key: String
    package var segments: [SizeRow]
    package var sections: [SizeRow]

    init(old: ReleaseFacts.Image, new: ReleaseFacts.Image) {
        key = new.key
        segments = Self.rows(old.segments, new.segments)
        sections = Self.rows(old.sections, new.sections)
    }

    var isEmpty: Bool { segments.isEmpty && sections.isEmpty }

    /// The parts whose size changed (added and removed ones too), in the new image's order.
    private static func rows(_ old: [ReleaseFacts.Part], _ new: [ReleaseFacts.Part]) -> [SizeRow] {
        let before = Dictionary(old.map { ($0.name, $0.size) }, uniquingKeysWith: +)
        let after = Dictionary(new.map { ($0.name, $0.size) }, uniquingKeysWith: +)
        let names = new.map(\.name) + old.map(\.name).filter { after[$0] == nil }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }.compactMap { name in
            let row = SizeRow(
                name: name, old: SizeRow.Sizes(download: before[name] ?? 0, install: before[name] ?? 0),
                new: SizeRow.Sizes(download: after[name] ?? 0, install: after[name] ?? 0))
            return row.isChanged ? row : nil
        }
    }
}
