import Foundation
import ShipcheckCore

/// Every Xcode project, XcodeGen spec and `.xcconfig` among a scan's files, read once, with
/// the stacked settings of each project × target × configuration. The source scanner reads
/// `DEVELOPMENT_ASSET_PATHS` from it and the audit reads release build settings, so both see
/// the same projects, the same `$(inherited)` chains and the same errors.
public struct XcodeSettingsCatalog: Sendable {
    /// One target (or the project alone, `target == nil`) in one configuration.
    public struct Scope: Sendable {
        public var project: XcodeProject
        public var target: XcodeTarget?
        public var configurationName: String
        public var settings: EffectiveBuildSettings
        /// For messages: `target App, configuration Release`.
        public var label: String
    }

    /// An `.xcconfig` no project references (XcodeGen `configFiles`, Tuist, a shared config).
    public struct StandaloneXCConfig: Sendable {
        public var config: XCConfig
        /// Relative to the root: the nearest folder above it holding an `.xcodeproj` or a
        /// `project.yml`, else its own folder; what `$(SRCROOT)` means for it.
        public var baseDirectory: String
    }

    public private(set) var projects: [XcodeProject] = []
    public private(set) var scopes: [Scope] = []
    public private(set) var standaloneXCConfigs: [StandaloneXCConfig] = []
    public private(set) var errors: [InputError] = []

    /// `root` is the scan root as given (files' `path` start with it); every path in the
    /// catalog (projects, settings' files) is relative to it. `sizeLimit` is the configuration's
    /// `max-file-size` (an `.xcconfig` is also held to `XCConfigReader.defaultSizeLimit`).
    ///
    /// With `keys`, a project is read only when its text mentions one of them or an `.xcconfig`
    /// among the files does: a project that cannot set the settings a check asks about is not
    /// parsed (large CocoaPods-style projects are the slow part of a scan).
    public init(files: [ScannedFile], root: String, keys: [String] = [], sizeLimit: Int = SafeFileReader.defaultSizeLimit) {
        let xcconfigSizeLimit = min(sizeLimit, XCConfigReader.defaultSizeLimit)
        var consumedXCConfigs: Set<String> = []
        var xcconfigCache: [String: XCConfig] = [:]
        let mentionsKey: ([UInt8]) -> Bool = { bytes in keys.isEmpty || keys.contains { ByteSearch.contains($0, in: bytes) } }
        let xcconfigsMentionKeys = keys.isEmpty || files.contains { file in
            file.relativePath.hasSuffix(".xcconfig") && (try? SafeFileReader.read(file.path, sizeLimit: xcconfigSizeLimit)).map(mentionsKey) == true
        }
        for file in files {
            let isPBXProj = file.relativePath.hasSuffix(".xcodeproj/project.pbxproj")
            let isXcodeGen = file.relativePath.split(separator: "/").last == "project.yml"
            guard isPBXProj || isXcodeGen else { continue }
            do {
                let bytes = try SafeFileReader.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
                guard xcconfigsMentionKeys || mentionsKey(bytes) else { continue }
                let project: XcodeProject
                if isPBXProj {
                    project = try PBXProjectReader.parse(bytes, file: file.relativePath,
                                                         projectDirectory: PBXProjectReader.projectDirectory(ofPBXProj: file.relativePath))
                } else {
                    // A project.yml that is not an XcodeGen spec is none of ours.
                    guard ByteSearch.contains("targets:", in: bytes) else { continue }
                    project = try XcodeGenReader.parse(String(decoding: bytes, as: UTF8.self), file: file.relativePath,
                                                       projectDirectory: XcodePath.directory(of: file.relativePath))
                }
                add(project, root: root, xcconfigSizeLimit: xcconfigSizeLimit, xcconfigs: &xcconfigCache, consumed: &consumedXCConfigs)
            } catch {
                errors.append(error)
            }
        }
        for file in files where file.relativePath.hasSuffix(".xcconfig") && !consumedXCConfigs.contains(file.relativePath) {
            do {
                let config = Self.relativised(try XCConfigReader.read(path: file.path, sizeLimit: xcconfigSizeLimit), root: root)
                standaloneXCConfigs.append(StandaloneXCConfig(config: config, baseDirectory: Self.projectDirectory(near: file.relativePath, root: root)))
            } catch {
                errors.append(Self.relativised(error, root: root))
            }
        }
    }

    private mutating func add(_ project: XcodeProject, root: String, xcconfigSizeLimit: Int, xcconfigs: inout [String: XCConfig], consumed: inout Set<String>) {
        projects.append(project)
        // Base configurations, read once each (paths here are relative to the root). One that is
        // not there is usually generated (CocoaPods' support files): nothing to read, not an error.
        let bases = Set((project.configurations + project.targets.flatMap(\.configurations)).compactMap(\.baseConfigurationPath))
        for base in bases.sorted() where xcconfigs[base] == nil && FileKind.of(Self.onDisk(base, root: root)) != nil {
            do {
                let config = Self.relativised(try XCConfigReader.read(path: Self.onDisk(base, root: root), sizeLimit: xcconfigSizeLimit), root: root)
                xcconfigs[base] = config
                consumed.formUnion(config.files)
            } catch {
                errors.append(Self.relativised(error, root: root))
            }
        }
        let pairs: [(XcodeTarget?, String)] =
            project.configurations.map { (nil, $0.name) } + project.targets.flatMap { target in target.configurations.map { (target, $0.name) } }
        for (target, configurationName) in pairs {
            let settings = EffectiveBuildSettings(project: project, target: target, configurationName: configurationName, xcconfigs: xcconfigs)
            let label = (target.map { "target \($0.name)" } ?? "project \(project.projectName)") + ", configuration \(configurationName)"
            scopes.append(Scope(project: project, target: target, configurationName: configurationName, settings: settings, label: label))
        }
    }

    static func projectDirectory(near relativePath: String, root: String) -> String {
        var directory = XcodePath.directory(of: relativePath)
        while true {
            let onDisk = onDisk(directory, root: root)
            if FileKind.of(onDisk + "/project.yml") != nil || containsXcodeProject(onDisk) { return directory }
            if directory == "." || directory == "/" { return XcodePath.directory(of: relativePath) }
            directory = XcodePath.directory(of: directory)
        }
    }

    private static func containsXcodeProject(_ directory: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?.contains { $0.hasSuffix(".xcodeproj") } ?? false
    }

    /// `relative` (to the root) as a path to open.
    public static func onDisk(_ relative: String, root: String) -> String {
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
        Location.path(path, relativeTo: root)
    }
}
