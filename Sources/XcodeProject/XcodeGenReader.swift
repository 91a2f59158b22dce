import ScanEngine
import ShipcheckCore
import Yams

/// Reads the build settings of an XcodeGen `project.yml`: `settings` (a plain mapping, or
/// `base` plus `configs.<Name>`) at the project level and per target, and `configFiles`.
/// Configuration names come from `configs` (default Debug and Release). `include:`d spec
/// files and setting `groups` are not followed.
package enum XcodeGenReader {
    package static func read(path: String, displayPath: String? = nil) throws(InputError) -> XcodeProject {
        let shown = displayPath ?? path
        let bytes = try SafeFileReader.read(path, displayPath: shown, sizeLimit: 16 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(path: shown, message: "project spec is not valid UTF-8")
        }
        return try parse(text, file: shown, projectDirectory: XcodePath.directory(of: path))
    }

    package static func parse(_ text: String, file: String, projectDirectory: String) throws(InputError) -> XcodeProject
    {
        let top = try YAMLMapping.parse(text, file: file)
        let name = (try? top.string("name")) ?? nil
        var configurationNames = ["Debug", "Release"]
        if let configs = try top.mapping("configs") {
            configurationNames = configs.mapping.compactMap { $0.key.scalar?.string }
        }
        let projectConfigurations = try configurations(
            of: top, names: configurationNames, prefix: "project", file: file, projectDirectory: projectDirectory)
        var targets: [XcodeTarget] = []
        if let targetMap = try top.mapping("targets") {
            for (key, _) in targetMap.mapping {
                guard let targetName = key.scalar?.string, let target = try targetMap.mapping(targetName) else {
                    continue
                }
                var targetConfigurations = try configurations(
                    of: target, names: configurationNames, prefix: targetName, file: file,
                    projectDirectory: projectDirectory)
                let info = try target.mapping("info")
                // `info: path:` is the target's INFOPLIST_FILE (XcodeGen writes it so).
                if let info, let path = try info.string("path"),
                    let key = info.mapping.first(where: { $0.key.scalar?.string == "path" })?.key
                {
                    let setting = BuildSetting(
                        key: "INFOPLIST_FILE", value: .string(path), file: file, line: key.mark?.line,
                        column: key.mark?.column)
                    for index in targetConfigurations.indices {
                        targetConfigurations[index].settings.insert(setting, at: 0)
                    }
                }
                let targetSources = sources(of: target, projectDirectory: projectDirectory)
                targets.append(
                    XcodeTarget(
                        id: "target:\(targetName)", name: targetName, configurations: targetConfigurations,
                        productType: try target.string("type"), sources: targetSources, resources: targetSources,
                        infoProperties: try info?.mapping("properties").map(scalarEntries) ?? [:]))
            }
        }
        return XcodeProject(
            kind: .xcodegen, file: file, projectDirectory: projectDirectory, projectName: name ?? "project",
            configurations: projectConfigurations, targets: targets)
    }

    /// The scalar entries of a mapping, as text.
    private static func scalarEntries(_ mapping: YAMLMapping) -> [String: String] {
        Dictionary(
            mapping.mapping.compactMap { key, value in
                guard let name = key.scalar?.string, let text = value.scalar?.string else { return nil }
                return (name, text)
            }, uniquingKeysWith: { first, _ in first })
    }

    /// `sources:` as a path, a list of paths, or a list of `{path: …}` mappings, each a file or
    /// a folder compiled whole.
    private static func sources(of target: YAMLMapping, projectDirectory: String) -> [String] {
        let entries: [Node]
        switch target.node("sources") {
        case .scalar(let scalar)?: entries = [.scalar(scalar)]
        case .sequence(let sequence)?: entries = Array(sequence)
        default: entries = []
        }
        return entries.compactMap { entry in
            let path = entry.scalar?.string ?? entry.mapping?["path"]?.scalar?.string
            return path.map { XcodePath.resolve($0, relativeTo: projectDirectory) }
        }
    }

    /// One `BuildConfiguration` per configuration name for the `settings` / `configFiles` of `owner`.
    private static func configurations(
        of owner: YAMLMapping, names: [String], prefix: String, file: String, projectDirectory: String
    ) throws(InputError) -> [BuildConfiguration] {
        let settings = try owner.mapping("settings")
        let configFiles = try owner.mapping("configFiles")
        let isStructured =
            settings.map { mapping in
                mapping.mapping.contains { ["base", "configs", "groups"].contains($0.key.scalar?.string ?? "") }
            } ?? false
        var base: [BuildSetting] = []
        var perConfiguration: [String: [BuildSetting]] = [:]
        if let settings {
            if isStructured {
                if let baseMapping = try settings.mapping("base") { base = buildSettings(baseMapping, file: file) }
                if let configs = try settings.mapping("configs") {
                    for (key, _) in configs.mapping {
                        guard let configName = key.scalar?.string, let mapping = try configs.mapping(configName) else {
                            continue
                        }
                        perConfiguration[configName.lowercased()] = buildSettings(mapping, file: file)
                    }
                }
            } else {
                base = buildSettings(settings, file: file)
            }
        }
        return names.map { configName in
            let specific = perConfiguration[configName.lowercased()] ?? []
            let xcconfig = (try? configFiles?.string(configName)) ?? nil
            return BuildConfiguration(
                id: "\(prefix):\(configName)", name: configName, settings: base + specific,
                baseConfigurationPath: xcconfig.map { XcodePath.resolve($0, relativeTo: projectDirectory) })
        }
    }

    private static func buildSettings(_ mapping: YAMLMapping, file: String) -> [BuildSetting] {
        mapping.mapping.compactMap { key, node -> BuildSetting? in
            guard let rawKey = key.scalar?.string else { return nil }
            let (name, condition) = BuildSetting.splitCondition(rawKey)
            let value: BuildSettingValue
            switch node {
            case .scalar(let scalar): value = .string(settingText(scalar))
            case .sequence(let sequence): value = .list(sequence.compactMap { $0.scalar.map(settingText) })
            default: return nil
            }
            return BuildSetting(
                key: name, condition: condition, value: value, file: file, line: key.mark?.line,
                column: key.mark?.column)
        }
    }

    /// XcodeGen writes YAML booleans as Xcode's YES / NO.
    private static func settingText(_ scalar: Node.Scalar) -> String {
        guard scalar.style == .plain else { return scalar.string }
        switch scalar.string {
        case "true", "True", "TRUE", "yes", "Yes": return "YES"
        case "false", "False", "FALSE", "no", "No": return "NO"
        default: return scalar.string
        }
    }
}
