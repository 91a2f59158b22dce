import ShipcheckCore
import XcodeProject

/// One app target in one release configuration, with what its sources use and what its
/// resources and Info.plist declare: what the project-side privacy rules judge
/// (`PrivacyProjectRule`).
struct AppTarget {
    let target: XcodeTarget
    let scope: XcodeSettingsCatalog.Scope
    let uses: [(index: Int, path: String, uses: [PrivacyDeclarationsCheck.LocatedUse])]
    let manifests: [(path: String, manifest: PrivacyManifest)]
    let propertyLists: [String: [String: String]?]

    /// Required reason declarations are asked of every platform but macOS.
    var isMacOS: Bool { scope.settings.resolve("SDKROOT")?.value == "macosx" }

    /// Every use of one kind, in file order, with its file.
    func located(where matches: (SourceAPIScanner.Use.Subject) -> Bool) -> [(
        path: String, use: PrivacyDeclarationsCheck.LocatedUse
    )] {
        uses.flatMap { file in file.uses.filter { matches($0.use.subject) }.map { (file.path, $0) } }
    }

    /// How the target's Info.plist answers a key (its value, or nil when it lacks it), or nil
    /// when the Info.plist cannot be known: an INFOPLIST_FILE the scan did not read or that does
    /// not parse, or neither INFOPLIST_FILE nor a generated Info.plist.
    func infoPlistLookup() -> ((String) -> String?)? {
        let settings = scope.settings
        var file: [String: String] = [:]
        if let setting = settings.resolve("INFOPLIST_FILE"), !setting.value.isEmpty {
            let expanded = BuildSettingExpansion.expand(setting.value, variables: settings.variables)
            let path = XcodePath.resolve(expanded, relativeTo: scope.project.projectDirectory)
            guard let read = propertyLists[path], let strings = read else { return nil }
            file = strings
        } else if settings.resolve("GENERATE_INFOPLIST_FILE")?.value.uppercased() != "YES",
            target.infoProperties.isEmpty
        {
            return nil
        }
        let properties = target.infoProperties
        return { key in
            settings.resolve("INFOPLIST_KEY_\(key)")?.value ?? file[key] ?? properties[key]
        }
    }
}
