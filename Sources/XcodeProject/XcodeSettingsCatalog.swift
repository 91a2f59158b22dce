import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization

/// Every Xcode project, XcodeGen spec and `.xcconfig` among a scan's files, each parsed at most
/// once, with the stacked settings of each project × target × configuration. The source
/// scanner reads `DEVELOPMENT_ASSET_PATHS` from it and the audit reads release build settings,
/// so both see the same projects, the same `$(inherited)` chains and the same errors.
///
/// Projects are parsed on demand: `view(keys:)` parses only the projects whose text mentions
/// one of the keys (or every project, when an `.xcconfig` mentions one: a base configuration
/// can set it), because large CocoaPods-style projects are the slow part of a scan and most of
/// them set none of the settings a check asks about.
package final class XcodeSettingsCatalog: Sendable {
    /// One target (or the project alone, `target == nil`) in one configuration.
    package struct Scope: Sendable {
        package var project: XcodeProject
        package var target: XcodeTarget?
        package var configurationName: String
        package var settings: EffectiveBuildSettings
        /// For messages: `target App, configuration Release`.
        package var label: String
    }

    /// An `.xcconfig` no project references (XcodeGen `configFiles`, Tuist, a shared config).
    package struct StandaloneXCConfig: Sendable {
        package var config: XCConfig
        /// Relative to the root: the nearest folder above it holding an `.xcodeproj` or a
        /// `project.yml`, else its own folder; what `$(SRCROOT)` means for it.
        package var baseDirectory: String
    }

    /// What can set one of some keys.
    package struct View: Sendable {
        package var projects: [XcodeProject] = []
        package var scopes: [Scope] = []
        /// The `.xcconfig` files no project of this view references.
        package var standaloneXCConfigs: [StandaloneXCConfig] = []
    }

    /// Reads a file's bytes: `path` as opened, `displayPath` as errors name it.
    package typealias Reader =
        @Sendable (_ path: String, _ displayPath: String, _ sizeLimit: Int) throws(InputError) -> [UInt8]

    private let files: [ScannedFile]
    private let root: String
    private let sizeLimit: Int
    private let xcconfigSizeLimit: Int
    private let read: Reader
    private let report: @Sendable (InputError) -> Void
    /// Projects parsed by earlier runs, by their bytes (a large `project.pbxproj` is most of a
    /// warm run's time otherwise).
    private let results: (any ResultStore)?
    private let parsed = Mutex(Parsed())

    /// What was parsed so far, by the path of the file (relative to the root).
    private struct Parsed {
        /// nil: not a project after all, or it could not be read (reported).
        var projects: [String: (project: XcodeProject, scopes: [Scope], xcconfigFiles: Set<String>)?] = [:]
        var xcconfigs: [String: XCConfig?] = [:]
        var mentions: [String: Bool] = [:]
    }

    /// `files` are a scan's files (their `path` starts with `root`); every path in the catalog
    /// (projects, settings' files) is relative to the root. `sizeLimit` is the configuration's
    /// `max-file-size` (an `.xcconfig` is also held to `XCConfigReader.defaultSizeLimit`).
    /// Errors (an unreadable or corrupt project) go to `report`, once each.
    package init(
        files: [ScannedFile], root: String, sizeLimit: Int = SafeFileReader.defaultSizeLimit,
        read: @escaping Reader = { path, shown, limit throws(InputError) in
            try SafeFileReader.read(path, displayPath: shown, sizeLimit: limit)
        },
        report: @escaping @Sendable (InputError) -> Void, results: (any ResultStore)? = nil
    ) {
        self.results = results
        self.files = files.filter { Self.isProjectFile($0.relativePath) }
        self.root = root
        self.sizeLimit = sizeLimit
        xcconfigSizeLimit = min(sizeLimit, XCConfigReader.defaultSizeLimit)
        self.read = read
        self.report = report
    }

    /// `project.pbxproj`, XcodeGen's `project.yml` and `.xcconfig` files.
    package static func isProjectFile(_ relativePath: String) -> Bool {
        relativePath.hasSuffix(".xcodeproj/project.pbxproj") || relativePath.hasSuffix(".xcconfig")
            || relativePath == "project.yml" || relativePath.hasSuffix("/project.yml")
    }

    /// The projects (and their scopes) that can set one of `keys`, and the `.xcconfig` files
    /// none of them references. Every project when `keys` is empty.
    package func view(keys: [String]) -> View {
        parsed.withLock { parsed in
            let xcconfigFiles = files.filter { $0.relativePath.hasSuffix(".xcconfig") }
            let xcconfigsMentionKeys =
                keys.isEmpty
                || xcconfigFiles.contains {
                    mentions(keys, in: $0, sizeLimit: xcconfigSizeLimit, unreadable: false, &parsed)
                }
            var view = View()
            var consumed: Set<String> = []
            for file in files where !file.relativePath.hasSuffix(".xcconfig") {
                guard xcconfigsMentionKeys || mentions(keys, in: file, sizeLimit: sizeLimit, unreadable: true, &parsed),
                    let project = project(file, &parsed)
                else { continue }
                view.projects.append(project.project)
                view.scopes += project.scopes
                consumed.formUnion(project.xcconfigFiles)
            }
            for file in xcconfigFiles where !consumed.contains(file.relativePath) {
                guard let config = xcconfig(onDisk: file.path, &parsed) else { continue }
                view.standaloneXCConfigs.append(
                    StandaloneXCConfig(
                        config: config, baseDirectory: Self.projectDirectory(near: file.relativePath, root: root)))
            }
            return view
        }
    }

    /// Whether the file's text names one of `keys`; `unreadable` when it cannot be read (a
    /// project is then parsed, which reports the error).
    private func mentions(
        _ keys: [String], in file: ScannedFile, sizeLimit: Int, unreadable: Bool, _ parsed: inout Parsed
    ) -> Bool {
        let memo = file.relativePath + "\u{1F}" + keys.joined(separator: " ")
        if let known = parsed.mentions[memo] { return known }
        let bytes = try? read(file.path, file.relativePath, sizeLimit)
        let found =
            bytes.map { bytes in keys.isEmpty || keys.contains { ByteSearch.contains($0, in: bytes) } } ?? unreadable
        parsed.mentions[memo] = found
        return found
    }

    private func project(_ file: ScannedFile, _ parsed: inout Parsed) -> (
        project: XcodeProject, scopes: [Scope], xcconfigFiles: Set<String>
    )? {
        if let known = parsed.projects[file.relativePath] { return known }
        var result: (project: XcodeProject, scopes: [Scope], xcconfigFiles: Set<String>)? = nil
        do {
            let bytes = try read(file.path, file.relativePath, sizeLimit)
            let project: XcodeProject?
            if file.relativePath.hasSuffix("project.pbxproj") {
                project = try pbxproj(bytes, file: file.relativePath)
            } else if ByteSearch.contains("targets:", in: bytes) {
                project = try XcodeGenReader.parse(
                    String(decoding: bytes, as: UTF8.self), file: file.relativePath,
                    projectDirectory: XcodePath.directory(of: file.relativePath))
            } else {
                project = nil  // A project.yml that is not an XcodeGen spec is none of ours.
            }
            if let project { result = scopes(of: project, &parsed) }
        } catch {
            report(error)
        }
        parsed.projects[file.relativePath] = .some(result)
        return result
    }

    /// The project in a `project.pbxproj`'s bytes: what an earlier run parsed from the same
    /// bytes at the same path, else parsed now (and kept for the next run).
    private func pbxproj(_ bytes: [UInt8], file: String) throws(InputError) -> XcodeProject {
        let key = results?.key(
            "project.pbxproj", path: file, contentHash: bytes.withByteView(ContentHash.hex), settings: "")
        if let key, let known = results?.value(XcodeProject.self, for: key) { return known }
        let project = try PBXProjectReader.parse(
            bytes, file: file, projectDirectory: PBXProjectReader.projectDirectory(ofPBXProj: file))
        if let key { results?.record(project, for: key) }
        return project
    }

    private func scopes(of project: XcodeProject, _ parsed: inout Parsed) -> (
        project: XcodeProject, scopes: [Scope], xcconfigFiles: Set<String>
    ) {
        // Base configurations, read once each (paths here are relative to the root). One that is
        // not there is usually generated (CocoaPods' support files): nothing to read, not an error.
        var xcconfigs: [String: XCConfig] = [:]
        var consumed: Set<String> = []
        let bases = Set(
            (project.configurations + project.targets.flatMap(\.configurations)).compactMap(\.baseConfigurationPath))
        for base in bases.sorted() where FileKind.of(Self.onDisk(base, root: root)) != nil {
            guard let config = xcconfig(onDisk: Self.onDisk(base, root: root), &parsed) else { continue }
            xcconfigs[base] = config
            consumed.formUnion(config.files)
        }
        let pairs: [(XcodeTarget?, String)] =
            project.configurations.map { (nil, $0.name) }
            + project.targets.flatMap { target in target.configurations.map { (target, $0.name) } }
        let scopes = pairs.map { target, configurationName in
            let settings = EffectiveBuildSettings(
                project: project, target: target, configurationName: configurationName, xcconfigs: xcconfigs)
            let label =
                (target.map { "target \($0.name)" } ?? "project \(project.projectName)")
                + ", configuration \(configurationName)"
            return Scope(
                project: project, target: target, configurationName: configurationName, settings: settings, label: label
            )
        }
        return (project, scopes, consumed)
    }

    /// The `.xcconfig` at `path` (as opened) with its includes, paths relative to the root.
    private func xcconfig(onDisk path: String, _ parsed: inout Parsed) -> XCConfig? {
        if let known = parsed.xcconfigs[path] { return known }
        let root = root, read = read
        var config: XCConfig?
        do {
            config = Self.relativised(
                try XCConfigReader.read(path: path, sizeLimit: xcconfigSizeLimit) { path, limit throws(InputError) in
                    try read(path, path, limit)
                }, root: root)
        } catch {
            report(Self.relativised(error, root: root))
        }
        parsed.xcconfigs[path] = .some(config)
        return config
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
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?.contains { $0.hasSuffix(".xcodeproj") }
            ?? false
    }

    /// `relative` (to the root) as a path to open.
    package static func onDisk(_ relative: String, root: String) -> String {
        if relative.hasPrefix("/") || root == "." { return relative }
        return relative == "." ? root : "\(root)/\(relative)"
    }

    private static func relativised(_ config: XCConfig, root: String) -> XCConfig {
        var config = config
        config.path = Location.path(config.path, relativeTo: root)
        config.files = config.files.map { Location.path($0, relativeTo: root) }
        for index in config.settings.indices {
            config.settings[index].file = Location.path(config.settings[index].file, relativeTo: root)
        }
        return config
    }

    private static func relativised(_ error: InputError, root: String) -> InputError {
        var error = error
        error.path = Location.path(error.path, relativeTo: root)
        return error
    }
}
