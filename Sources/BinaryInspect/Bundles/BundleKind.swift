/// The Apple bundles and archives `shipcheck binary` walks, known by their extension, and what
/// inside them is not shipped code (skipped).
public enum BundleKind: String, Sendable, CaseIterable {
    case app, appex, framework, xcframework, xcarchive, ipa
    /// A SwiftPM resource bundle: `<Package>_<Target>.resources` beside an executable on Linux,
    /// `<Package>_<Target>.bundle` inside an app.
    case resources, bundle

    /// The kind a path names by its extension (`App.app`, `Payload/App.ipa`), if any.
    public init?(path: String) {
        var name = Substring(path)
        while name.hasSuffix("/") { name = name.dropLast() }
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// Kinds that a directory walk treats as one artifact (the outermost one wins). A `.bundle`
    /// outside an app is usually a loadable plug-in (a Mach-O `MH_BUNDLE` file, as the fixture
    /// `AppTests.bundle` is), so it is not one of them.
    var isArtifact: Bool { self != .bundle }

    /// Folders inside artifacts that hold no shipped code of the team's own: debug symbols
    /// (`dSYMs`, `*.dSYM`, `BCSymbolMaps`, an ipa's `Symbols`) and Apple's copies of the Swift
    /// runtime (`SwiftSupport`).
    static func isSkipped(component: Substring) -> Bool {
        component == "dSYMs" || component.hasSuffix(".dSYM") || component == "BCSymbolMaps" || component == "Symbols"
            || component == "SwiftSupport"
    }

    /// Whether the signing of this artifact is final: an `.xcarchive` is re-signed when it is
    /// exported (Xcode archives with the development identity and signs for distribution on
    /// export), so its entitlements and profile say nothing about what reaches users.
    var hasFinalSigning: Bool { self != .xcarchive }
}
