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
/// and every XcodeGen `project.yml` among the scanned files.
struct DevelopmentAssets {
    static let settingKey = "DEVELOPMENT_ASSET_PATHS"

    var paths: [DevelopmentAssetPath] = []
    var errors: [InputError] = []

    /// `root` is the scan root as given (files' `path` start with it); paths come back relative to it.
    init(files: [ScannedFile], root: String) {
        var consumedXCConfigs: Set<String> = []
        var xcconfigCache: [String: XCConfig] = [:]
        // The setting is written in a project file or an xcconfig. When no xcconfig among the
        // files mentions it, a project whose text does not mention it cannot set it either,
        // and is not parsed (large CocoaPods-style projects are the slow part of a scan).
        let xcconfigsMentionSetting = files.contains { file in
            file.relativePath.hasSuffix(".xcconfig")
                && (try? SafeFileReader.read(file.path)).map { ByteSearch.contains(Self.settingKey, in: $0) } == true
        }
        for file in files {
            let isPBXProj = file.relativePath.hasSuffix(".xcodeproj/project.pbxproj")
            let isXcodeGen = file.relativePath.split(separator: "/").last == "project.yml"
            guard isPBXProj || isXcodeGen else { continue }
            do {
                let project: XcodeProject
                if isPBXProj {
                    let relativeDirectory = PBXProjectReader.projectDirectory(ofPBXProj: file.relativePath)
                    let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath)
                    guard xcconfigsMentionSetting || ByteSearch.contains(Self.settingKey, in: bytes) else { continue }
                    project = try PBXProjectReader.parse(bytes, file: file.relativePath, projectDirectory: relativeDirectory)
                } else {
                    let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath)
                    // A project.yml that is not an XcodeGen spec is none of ours.
                    guard ByteSearch.contains("targets:", in: bytes) else { continue }
                    project = try XcodeGenReader.parse(String(decoding: bytes, as: UTF8.self), file: file.relativePath,
                                                       projectDirectory: XcodePath.directory(of: file.relativePath))
                }
                collect(from: project, root: root, xcconfigs: &xcconfigCache, consumed: &consumedXCConfigs)
            } catch {
                errors.append(error)
            }
        }
        for file in files where file.relativePath.hasSuffix(".xcconfig") && !consumedXCConfigs.contains(file.relativePath) {
            collect(standaloneXCConfig: file, root: root)
        }
        paths = Array(Set(paths)).sorted { ($0.path, $0.setting.file, $0.setting.line ?? 0, $0.scope) < ($1.path, $1.setting.file, $1.setting.line ?? 0, $1.scope) }
    }

    private mutating func collect(from project: XcodeProject, root: String, xcconfigs: inout [String: XCConfig], consumed: inout Set<String>) {
        // Base configurations, read once each (paths here are relative to the root).
        let bases = Set((project.configurations + project.targets.flatMap(\.configurations)).compactMap(\.baseConfigurationPath))
        // A base configuration that is not there is usually generated (CocoaPods' support files):
        // it cannot name Development Assets we could check, and it is not this check's to report.
        for base in bases.sorted() where xcconfigs[base] == nil && FileKind.of(Self.onDisk(base, root: root)) != nil {
            do {
                let config = try XCConfigReader.read(path: Self.onDisk(base, root: root))
                xcconfigs[base] = Self.relativised(config, root: root)
                consumed.formUnion(xcconfigs[base]!.files)
            } catch {
                errors.append(Self.relativised(error, root: root))
            }
        }
        let scopes: [(XcodeTarget?, String)] =
            project.configurations.map { (nil, $0.name) } + project.targets.flatMap { target in target.configurations.map { (target, $0.name) } }
        for (target, configurationName) in scopes {
            let settings = EffectiveBuildSettings(project: project, target: target, configurationName: configurationName, xcconfigs: xcconfigs)
            guard let resolved = settings.resolve(Self.settingKey), let setting = resolved.assignments.last else { continue }
            let scope = (target.map { "target \($0.name)" } ?? "project \(project.projectName)") + ", configuration \(configurationName)"
            add(words: resolved.words, variables: settings.variables, base: project.projectDirectory, setting: setting, scope: scope)
        }
    }

    /// An `.xcconfig` no project references (XcodeGen `configFiles`, Tuist, a shared config):
    /// relative paths are taken from the nearest folder above it holding an `.xcodeproj` or a
    /// `project.yml`, else from its own folder.
    private mutating func collect(standaloneXCConfig file: ScannedFile, root: String) {
        let config: XCConfig
        do {
            config = Self.relativised(try XCConfigReader.read(path: file.path), root: root)
        } catch {
            errors.append(Self.relativised(error, root: root))
            return
        }
        guard let setting = config.setting(Self.settingKey) else { return }
        let base = Self.projectDirectory(near: file.relativePath, root: root)
        let value = EffectiveBuildSettings.replacingInherited(in: setting.value.text, with: "")
        add(words: BuildSettingWords.split(value), variables: ["SRCROOT": base, "PROJECT_DIR": base, "SOURCE_ROOT": base],
            base: base, setting: setting, scope: "xcconfig \(file.relativePath)")
    }

    private mutating func add(words: [String], variables: [String: String], base: String, setting: BuildSetting, scope: String) {
        for word in words {
            let expanded = BuildSettingExpansion.expand(word, variables: variables)
            // An unresolved reference ($(SOME_SETTING)) names no path we can check.
            guard !expanded.contains("$("), !expanded.contains("${"), !expanded.isEmpty else { continue }
            paths.append(DevelopmentAssetPath(path: XcodePath.resolve(expanded, relativeTo: base), setting: setting, scope: scope))
        }
    }

    static func projectDirectory(near relativePath: String, root: String) -> String {
        var directory = XcodePath.directory(of: relativePath)
        while true {
            let onDisk = onDisk(directory, root: root)
            if FileKind.of(onDisk + "/project.yml") != nil || Self.containsXcodeProject(onDisk) { return directory }
            if directory == "." || directory == "/" { return XcodePath.directory(of: relativePath) }
            directory = XcodePath.directory(of: directory)
        }
    }

    private static func containsXcodeProject(_ directory: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?.contains { $0.hasSuffix(".xcodeproj") } ?? false
    }

    /// `relative` (to the root) as a path to open.
    static func onDisk(_ relative: String, root: String) -> String {
        if relative.hasPrefix("/") || root == "." { return relative }
        return relative == "." ? root : "\(root)/\(relative)"
    }

    private static func relativised(_ config: XCConfig, root: String) -> XCConfig {
        var config = config
        config.path = relative(config.path, root: root)
        config.files = config.files.map { relative($0, root: root) }
        for index in config.settings.indices { config.settings[index].file = relative(config.settings[index].file, root: root) }
        return config
    }

    private static func relativised(_ error: InputError, root: String) -> InputError {
        var error = error
        error.path = relative(error.path, root: root)
        return error
    }

    private static func relative(_ path: String, root: String) -> String {
        guard root != ".", path.hasPrefix(root + "/") else { return path }
        return String(path.dropFirst(root.count + 1))
    }
}
