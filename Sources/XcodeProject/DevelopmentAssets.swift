import Foundation
import ShipcheckCore

/// A folder (or file) a build setting marks as Development Assets.
package struct DevelopmentAssetPath: Hashable, Sendable {
    /// Relative to the scanned root, normalised (may start with `..` when outside it).
    package var path: String
    /// The assignment that names it (the one in effect for the target and configuration).
    package var setting: BuildSetting
    /// Where it applies, for messages: `target App, configuration Debug`.
    package var scope: String
}

/// Collects `DEVELOPMENT_ASSET_PATHS` from every `project.pbxproj` (per target and
/// configuration, through base `.xcconfig` files and `$(inherited)`), every other `.xcconfig`
/// and every XcodeGen `project.yml` among the scanned files, as `XcodeSettingsCatalog` reads them.
package struct DevelopmentAssets: Sendable {
    package static let settingKey = "DEVELOPMENT_ASSET_PATHS"

    package private(set) var paths: [DevelopmentAssetPath] = []

    /// Paths come back relative to the catalog's root.
    package init(catalog: XcodeSettingsCatalog) {
        let catalog = catalog.view(keys: [Self.settingKey])
        for scope in catalog.scopes {
            guard let resolved = scope.settings.resolve(Self.settingKey), let setting = resolved.assignments.last else {
                continue
            }
            add(
                words: resolved.words, variables: scope.settings.variables, base: scope.project.projectDirectory,
                setting: setting, scope: scope.label)
        }
        // A standalone .xcconfig takes relative paths from the project folder nearest to it.
        for standalone in catalog.standaloneXCConfigs {
            guard let setting = standalone.config.setting(Self.settingKey) else { continue }
            let base = standalone.baseDirectory
            let value = EffectiveBuildSettings.replacingInherited(in: setting.value.text, with: "")
            add(
                words: BuildSettingWords.split(value),
                variables: ["SRCROOT": base, "PROJECT_DIR": base, "SOURCE_ROOT": base],
                base: base, setting: setting, scope: "xcconfig \(standalone.config.path)")
        }
        paths = Array(Set(paths)).sorted {
            ($0.path, $0.setting.file, $0.setting.line ?? 0, $0.scope) < (
                $1.path, $1.setting.file, $1.setting.line ?? 0, $1.scope
            )
        }
    }

    private mutating func add(
        words: [String], variables: [String: String], base: String, setting: BuildSetting, scope: String
    ) {
        for word in words {
            let expanded = BuildSettingExpansion.expand(word, variables: variables)
            // An unresolved reference ($(SOME_SETTING)) names no path we can check.
            guard !expanded.contains("$("), !expanded.contains("${"), !expanded.isEmpty else { continue }
            paths.append(
                DevelopmentAssetPath(
                    path: XcodePath.resolve(expanded, relativeTo: base), setting: setting, scope: scope))
        }
    }
}
