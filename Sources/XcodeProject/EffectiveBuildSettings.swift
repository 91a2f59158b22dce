import Foundation

/// A setting's value after the levels Xcode stacks for one target and configuration:
/// project `.xcconfig`, project settings, target `.xcconfig`, target settings. `$(inherited)`
/// at a level stands for the value of the levels below it.
package struct ResolvedBuildSetting: Sendable, Hashable {
    package var key: String
    /// The value with `$(inherited)` replaced; other references are left for `BuildSettingExpansion`.
    package var value: String
    /// The assignments that produced it, outermost (project) level first; the last one is the one in effect.
    package var assignments: [BuildSetting]

    package var words: [String] { BuildSettingWords.split(value) }
}

/// The stacked build settings of one target (or the project alone) in one configuration.
package struct EffectiveBuildSettings: Sendable {
    package let project: XcodeProject
    package let target: XcodeTarget?
    package let configurationName: String
    /// Setting levels, lowest first.
    private let levels: [[BuildSetting]]

    /// `xcconfigs` maps a base-configuration path to the file read (missing entries are skipped;
    /// the caller reports unreadable files).
    package init(project: XcodeProject, target: XcodeTarget?, configurationName: String, xcconfigs: [String: XCConfig])
    {
        self.project = project
        self.target = target
        self.configurationName = configurationName
        var levels: [[BuildSetting]] = []
        func add(_ configuration: BuildConfiguration?) {
            guard let configuration else { return }
            if let path = configuration.baseConfigurationPath, let xcconfig = xcconfigs[path] {
                levels.append(xcconfig.settings)
            }
            levels.append(configuration.settings)
        }
        add(project.configurations.first { $0.name == configurationName })
        add(target?.configurations.first { $0.name == configurationName })
        self.levels = levels
    }

    /// The value of `key` (unconditional assignments only), or nil when no level sets it.
    package func resolve(_ key: String) -> ResolvedBuildSetting? {
        var value: String? = nil
        var chain: [BuildSetting] = []
        for level in levels {
            guard let assignment = level.last(where: { $0.key == key && $0.condition == nil }) else { continue }
            let inherited = value ?? ""
            value = Self.replacingInherited(in: assignment.value.text, with: inherited)
            chain.append(assignment)
        }
        return value.map { ResolvedBuildSetting(key: key, value: $0, assignments: chain) }
    }

    /// Variables for `BuildSettingExpansion`: the project folder names plus target and project names.
    package var variables: [String: String] {
        var variables = [
            "SRCROOT": project.projectDirectory, "PROJECT_DIR": project.projectDirectory,
            "SOURCE_ROOT": project.projectDirectory, "PROJECT_NAME": project.projectName,
            "CONFIGURATION": configurationName
        ]
        if let target {
            variables["TARGET_NAME"] = target.name
            variables["PRODUCT_NAME"] = resolve("PRODUCT_NAME")?.value ?? target.name
        }
        return variables
    }

    /// `text` with `$(inherited)` / `${inherited}` replaced by `inherited`.
    package static func replacingInherited(in text: String, with inherited: String) -> String {
        guard text.contains("inherited") else { return text }
        let replaced = text.replacingOccurrences(of: "$(inherited)", with: inherited).replacingOccurrences(
            of: "${inherited}", with: inherited)
        return replaced.trimmingWhitespace()
    }
}
