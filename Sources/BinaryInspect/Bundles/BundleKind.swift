/// The Apple bundles and archives `shipcheck binary` walks, known by their extension, and what
/// inside them is not shipped code (skipped).
package enum BundleKind: String, Sendable, CaseIterable {
    case app, appex, framework, xcframework, xcarchive, ipa
    /// A SwiftPM resource bundle: `<Package>_<Target>.resources` beside an executable on Linux,
    /// `<Package>_<Target>.bundle` inside an app.
    case resources, bundle
    /// A single Mach-O file audited on its own (no extension names it): one image, no bundle.
    case binary

    /// The kind a path names by its extension (`App.app`, `Payload/App.ipa`), if any.
    package init?(path: String) {
        var name = Substring(path)
        while name.hasSuffix("/") { name = name.dropLast() }
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
        if self == .binary { return nil }
    }

    /// The role the artifact itself plays in the model, when it is a bundle.
    var bundleRole: BundleRole? {
        switch self {
        case .app: .application
        case .appex: .appExtension
        case .framework: .framework
        case .xcframework: .xcframework
        case .xcarchive: .archive
        case .bundle: .plugIn
        case .ipa, .resources, .binary: nil
        }
    }

    /// Kinds that a directory walk treats as one artifact (the outermost one wins). A `.bundle`
    /// outside an app is usually a loadable plug-in (a Mach-O `MH_BUNDLE` file, as the fixture
    /// `AppTests.bundle` is), so it is not one of them.
    package var isArtifact: Bool { self != .bundle && self != .binary }

    /// Whether a file inside an artifact is not shipped code of the team's own: debug symbols
    /// (`*.dSYM` and `dSYMs` folders anywhere — an xcarchive's, an xcframework library's —, and
    /// at the top of an .ipa or archive `BCSymbolMaps` and `Symbols`) and the copies of the
    /// Swift runtime that App Store exports put in `SwiftSupport`.
    static func isSkipped(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        if components.dropLast().contains(where: { $0 == "dSYMs" || $0.hasSuffix(".dSYM") }) { return true }
        guard components.count > 1, let top = components.first else { return false }
        return top == "BCSymbolMaps" || top == "Symbols" || top == "SwiftSupport"
    }

    /// Whether the signing of this artifact is final: an `.xcarchive` is re-signed when it is
    /// exported (Xcode archives with the development identity and signs for distribution on
    /// export), so its entitlements and profile say nothing about what reaches users.
    package var hasFinalSigning: Bool { self != .xcarchive }
}
