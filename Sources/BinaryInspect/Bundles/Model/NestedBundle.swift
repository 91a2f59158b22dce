import ShipcheckCore

/// A bundle folder inside an artifact (or the artifact itself, path ""): the app, its
/// extensions, embedded frameworks, watch app, app clip, XPC services and plug-ins, an
/// xcframework's frameworks. Known by the folder's extension and where it sits; carries its
/// `Info.plist` (XML or binary) read whole.
package struct NestedBundle: Sendable, Hashable {
    /// The folder inside the artifact (`Payload/App.app/PlugIns/Widget.appex`); "" for the
    /// artifact itself when it is a bundle.
    package var path: String
    package var role: BundleRole
    /// The bundle it is nested in (`NestedBundle.path`); nil for the outermost ones.
    package var container: String?
    /// Where its Info.plist is (`Info.plist`, `Contents/Info.plist`,
    /// `Versions/A/Resources/Info.plist` under the folder), nil when it has none.
    package var infoPlistPath: String?
    /// The Info.plist's top-level dictionary (empty without one).
    package var infoPlist: [String: PropertyListValue] = [:]
    /// Its executable (`BundleImage.path`), nil when none of its binaries is it.
    package var executable: String?

    /// The folder's name (`Widget.appex`; the artifact's for path "").
    package var name: String

    package init(path: String, role: BundleRole, name: String) {
        self.path = path
        self.role = role
        self.name = name
    }

    /// A string entry of the Info.plist (`CFBundleIdentifier`).
    package func info(_ key: String) -> String? { infoPlist[key]?.string }

    /// Whether `inner` (a path inside the artifact) lies inside this bundle's folder.
    package func contains(_ inner: String) -> Bool { path.isEmpty ? !inner.isEmpty : inner.hasPrefix(path + "/") }

    /// `inner` relative to the bundle's folder.
    func relative(_ inner: String) -> Substring { path.isEmpty ? Substring(inner) : inner.dropFirst(path.count + 1) }
}

/// What a bundle is, by its extension and where it sits.
package enum BundleRole: String, Sendable, CaseIterable {
    /// An `.app`: the main app (the outermost one), or an app nested in it (a macOS helper).
    case application = "app"
    case appExtension = "appex"
    /// An `.app` under `AppClips/`.
    case appClip = "app-clip"
    /// An `.app` under `Watch/`.
    case watchApplication = "watch-app"
    case framework
    /// An `.xpc` service.
    case xpcService = "xpc"
    /// A `.bundle`: a loadable plug-in or a resource bundle.
    case plugIn = "bundle"
    case xcframework
    case archive = "xcarchive"

    /// The role of a folder named `name` whose parent folders are `ancestors`; nil for folders
    /// that are not bundles.
    init?(folder name: Substring, ancestors: ArraySlice<Substring>) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "app":
            self =
                ancestors.last == "Watch" ? .watchApplication : ancestors.last == "AppClips" ? .appClip : .application
        case "appex": self = .appExtension
        case "framework": self = .framework
        case "xpc": self = .xpcService
        case "bundle": self = .plugIn
        case "xcframework": self = .xcframework
        case "xcarchive": self = .archive
        default: return nil
        }
    }

    /// Whether the bundle is code users install and run (an app of any kind, an extension).
    package var isApplicationLike: Bool { [.application, .appExtension, .appClip, .watchApplication].contains(self) }
}

/// The debug symbols of one image: a `*.dSYM/Contents/Resources/DWARF/NAME` file (an `MH_DSYM`
/// Mach-O file) and the UUIDs of its slices.
package struct DebugSymbolsFile: Sendable, Hashable {
    /// Inside the artifact: `dSYMs/App.app.dSYM/Contents/Resources/DWARF/App`.
    package var path: String
    /// Architecture and `LC_UUID` of each slice.
    package var uuids: [(architecture: String, uuid: String)] {
        get { slices.map { ($0.architecture, $0.uuid) } }
        set { slices = newValue.map { Slice(architecture: $0.architecture, uuid: $0.uuid) } }
    }

    private var slices: [Slice] = []

    private struct Slice: Sendable, Hashable {
        var architecture: String
        var uuid: String
    }

    package init(path: String, uuids: [(architecture: String, uuid: String)]) {
        self.path = path
        self.uuids = uuids
    }

    /// Whether a path inside an artifact is a dSYM's DWARF file (`X.dSYM/Contents/Resources/DWARF/X`).
    static func isDWARFFile(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard components.count >= 5 else { return false }
        let tail = components.suffix(5)
        return tail.first!.hasSuffix(".dSYM") && Array(tail.dropFirst().prefix(3)) == ["Contents", "Resources", "DWARF"]
    }

    /// The `.dSYM` folder (`dSYMs/App.app.dSYM`).
    package var bundle: String {
        let components = path.split(separator: "/")
        guard let index = components.lastIndex(where: { $0.hasSuffix(".dSYM") }) else { return path }
        return components[...index].joined(separator: "/")
    }
}
