import Foundation
import ShipcheckCore
import XcodeProject

/// A folder (or file) a build setting marks as Development Assets.
struct DevelopmentAssetPath: Hashable, Sendable {
    /// Relative to the scanned root, normalised (may start with `..` when outside it).
    var path: String
    /// The assignment that names it (the one in effect for the target and configuration).
    var setting: BuildSetting
    /// Where it applies, for messages: `target App, configuration Debug`.
    var scope: String
}

/// Collects `DEVELOPMENT_ASSET_PATHS` from every `project.pbxproj` (per target and
/// configuration, through base `.xcconfig` files and `$(inherited)`), every other `.xcconfig`
/// and every XcodeGen `project.yml` among the scanned files, as `XcodeSettingsCatalog` reads them.
struct DevelopmentAssets {
    static let settingKey = "DEVELOPMENT_ASSET_PATHS"

    var paths: [DevelopmentAssetPath] = []
    var errors: [InputError] = []

    /// `root` is the scan root as given (files' `path` start with it); paths come back relative to it.
    /// `sizeLimit` is the configuration's `max-file-size`.
    init(files: [ScannedFile], root: String, sizeLimit: Int) {
        self.init(catalog: XcodeSettingsCatalog(files: files, root: root, keys: [Self.settingKey], sizeLimit: sizeLimit))
    }

    init(catalog: XcodeSettingsCatalog) {
        errors = catalog.errors
        for scope in catalog.scopes {
            guard let resolved = scope.settings.resolve(Self.settingKey), let setting = resolved.assignments.last else { continue }
            add(words: resolved.words, variables: scope.settings.variables, base: scope.project.projectDirectory, setting: setting, scope: scope.label)
        }
        // A standalone .xcconfig takes relative paths from the project folder nearest to it.
        for standalone in catalog.standaloneXCConfigs {
            guard let setting = standalone.config.setting(Self.settingKey) else { continue }
            let base = standalone.baseDirectory
            let value = EffectiveBuildSettings.replacingInherited(in: setting.value.text, with: "")
            add(words: BuildSettingWords.split(value), variables: ["SRCROOT": base, "PROJECT_DIR": base, "SOURCE_ROOT": base],
                base: base, setting: setting, scope: "xcconfig \(standalone.config.path)")
        }
        paths = Array(Set(paths)).sorted { ($0.path, $0.setting.file, $0.setting.line ?? 0, $0.scope) < ($1.path, $1.setting.file, $1.setting.line ?? 0, $1.scope) }
    }

    private mutating func add(words: [String], variables: [String: String], base: String, setting: BuildSetting, scope: String) {
        for word in words {
            let expanded = BuildSettingExpansion.expand(word, variables: variables)
            // An unresolved reference ($(SOME_SETTING)) names no path we can check.
            guard !expanded.contains("$("), !expanded.contains("${"), !expanded.isEmpty else { continue }
            paths.append(DevelopmentAssetPath(path: XcodePath.resolve(expanded, relativeTo: base), setting: setting, scope: scope))
        }
    }
}
