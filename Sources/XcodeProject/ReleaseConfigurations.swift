import ShipcheckCore

/// Which build configurations count as release: the configuration's `release-configurations`
/// when set; otherwise every configuration an Archive action builds (shared `.xcscheme`
/// files) plus any named like Release, Production or AppStore.
package struct ReleaseConfigurations: Sendable {
    package static let releaseLikeWords = ["release", "production", "appstore", "app store", "app-store"]

    private let explicit: Set<String>?
    package private(set) var archived: Set<String> = []

    /// `schemes` are the texts of the shared `.xcscheme` files.
    package init(configuration: Configuration, schemes: [[UInt8]]) {
        explicit = configuration.releaseConfigurations.map(Set.init)
        for bytes in schemes {
            if let name = Self.archiveConfiguration(in: String(decoding: bytes, as: UTF8.self)) {
                archived.insert(name)
            }
        }
    }

    static func isScheme(_ relativePath: String) -> Bool { relativePath.hasSuffix(".xcscheme") }

    package func isRelease(_ name: String) -> Bool {
        if let explicit { return explicit.contains(name) }
        if archived.contains(name) { return true }
        let lowered = name.lowercased()
        return Self.releaseLikeWords.contains { lowered.contains($0) }
    }

    /// The `buildConfiguration` of a scheme's `<ArchiveAction …>` element.
    static func archiveConfiguration(in scheme: String) -> String? {
        guard let start = scheme.range(of: "<ArchiveAction") else { return nil }
        let tag = scheme[start.upperBound...].prefix { $0 != ">" }
        guard let key = tag.range(of: "buildConfiguration") else { return nil }
        let afterKey = tag[key.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "=" }
        guard afterKey.first == "\"" else { return nil }
        let value = afterKey.dropFirst().prefix { $0 != "\"" }
        return value.isEmpty ? nil : String(value)
    }
}
