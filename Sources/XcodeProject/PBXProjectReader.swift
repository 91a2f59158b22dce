import Foundation
import ScanEngine
import ShipcheckCore

/// Reads `project.pbxproj` files: the project, every target, every `XCBuildConfiguration`
/// with its settings, the 1-based line each setting is written on, and its base `.xcconfig`.
///
/// Values come from Foundation's `PropertyListSerialization` (it reads the OpenStep format
/// on Linux too); lines come from `PBXTextIndex`, which finds each configuration object's
/// `ID /* Name */ = {` block in the text.
package enum PBXProjectReader {
    /// Reads the pbxproj at `path`; `displayPath` is what errors and settings name.
    package static func read(path: String, displayPath: String? = nil) throws(InputError) -> XcodeProject {
        let shown = displayPath ?? path
        let bytes = try SafeFileReader.read(path, displayPath: shown, sizeLimit: 64 * 1024 * 1024)
        return try parse(bytes, file: shown, projectDirectory: projectDirectory(ofPBXProj: path))
    }

    /// The folder holding the `.xcodeproj` that holds `pbxprojPath`.
    package static func projectDirectory(ofPBXProj pbxprojPath: String) -> String {
        let bundle = XcodePath.directory(of: pbxprojPath)
        return XcodePath.directory(of: bundle)
    }

    package static func parse(_ bytes: [UInt8], file: String, projectDirectory: String) throws(InputError)
        -> XcodeProject
    {
        if let problem = PropertyListReader.binaryProblem(bytes) {
            throw InputError(
                path: file, message: "not a readable project.pbxproj (a binary property list that \(problem))")
        }
        let plist: Any
        do {
            plist = try PropertyListCall.object(from: Data(bytes))
        } catch {
            throw InputError(path: file, message: "not a readable project.pbxproj (\(describe(error)))")
        }
        guard let top = plist as? [String: Any], let objects = top["objects"] as? [String: Any],
            let rootID = top["rootObject"] as? String, let root = objects[rootID] as? [String: Any]
        else {
            throw InputError(path: file, message: "not a readable project.pbxproj (no objects or rootObject)")
        }
        let graph = PBXObjectGraph(objects: objects, projectDirectory: projectDirectory, root: root)
        let index = PBXTextIndex(bytes)
        func configurations(listID: Any?) -> [BuildConfiguration] {
            guard let listID = listID as? String, let list = objects[listID] as? [String: Any],
                let ids = list["buildConfigurations"] as? [String]
            else { return [] }
            return ids.compactMap { id in
                guard let object = objects[id] as? [String: Any] else { return nil }
                let name = object["name"] as? String ?? id
                let positions = index.settingPositions(ofObject: id)
                var settings: [BuildSetting] = []
                for (rawKey, rawValue) in (object["buildSettings"] as? [String: Any] ?? [:]) {
                    let (key, condition) = BuildSetting.splitCondition(rawKey)
                    let value: BuildSettingValue
                    if let items = rawValue as? [Any] {
                        value = .list(items.map { "\($0)" })
                    } else {
                        value = .string("\(rawValue)")
                    }
                    settings.append(
                        BuildSetting(
                            key: key, condition: condition, value: value, file: file, line: positions[rawKey]?.line,
                            column: positions[rawKey]?.column))
                }
                settings.sort { ($0.line ?? .max, $0.key) < ($1.line ?? .max, $1.key) }
                return BuildConfiguration(
                    id: id, name: name, settings: settings,
                    baseConfigurationPath: graph.baseConfigurationPath(of: object))
            }
        }
        let targets = (root["targets"] as? [String] ?? []).compactMap { id -> XcodeTarget? in
            guard let target = objects[id] as? [String: Any] else { return nil }
            return XcodeTarget(
                id: id, name: target["name"] as? String ?? id,
                configurations: configurations(listID: target["buildConfigurationList"]),
                productType: target["productType"] as? String, sources: graph.sources(of: target),
                resources: graph.resources(of: target))
        }
        let bundleName = XcodePath.directory(of: file).split(separator: "/").last.map(String.init) ?? file
        let projectName = bundleName.hasSuffix(".xcodeproj") ? String(bundleName.dropLast(10)) : bundleName
        return XcodeProject(
            kind: .pbxproj, file: file, projectDirectory: projectDirectory, projectName: projectName,
            configurations: configurations(listID: root["buildConfigurationList"]), targets: targets)
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSDebugDescription"] as? String { return detail }
        return nsError.localizedDescription
    }
}

/// Resolves file references (`baseConfigurationReference`) through the group tree.
struct PBXObjectGraph {
    let objects: [String: Any]
    let projectDirectory: String
    /// Child ID → parent group ID.
    private let parents: [String: String]
    private let mainGroup: String?

    init(objects: [String: Any], projectDirectory: String, root: [String: Any]) {
        self.objects = objects
        self.projectDirectory = projectDirectory
        var parents: [String: String] = [:]
        for (id, object) in objects {
            guard let object = object as? [String: Any], let children = object["children"] as? [String] else {
                continue
            }
            for child in children { parents[child] = id }
        }
        self.parents = parents
        mainGroup = root["mainGroup"] as? String
    }

    /// The path of the configuration's base `.xcconfig`, through a file reference or (Xcode 16
    /// synchronized folders) an anchor group plus a relative path.
    func baseConfigurationPath(of configuration: [String: Any]) -> String? {
        if let reference = configuration["baseConfigurationReference"] as? String {
            return path(of: reference)
        }
        if let anchor = configuration["baseConfigurationReferenceAnchor"] as? String,
            let relative = configuration["baseConfigurationReferenceRelativePath"] as? String,
            let folder = path(of: anchor)
        {
            return XcodePath.resolve(relative, relativeTo: folder)
        }
        return nil
    }

    /// What a target compiles: the files of its Sources build phases, and its Xcode 16
    /// synchronized folders (`fileSystemSynchronizedGroups`, whose exceptions are not read).
    func sources(of target: [String: Any]) -> [String] { files(of: target, phase: "PBXSourcesBuildPhase") }

    /// What a target copies as resources: the files of its Resources build phases, and its
    /// synchronized folders (everything in them that is not compiled is copied).
    func resources(of target: [String: Any]) -> [String] { files(of: target, phase: "PBXResourcesBuildPhase") }

    /// The files of a target's build phases of one kind, and its synchronized folders.
    private func files(of target: [String: Any], phase isa: String) -> [String] {
        let phases = (target["buildPhases"] as? [String] ?? []).compactMap { objects[$0] as? [String: Any] }
        let files = phases.filter { $0["isa"] as? String == isa }.flatMap { $0["files"] as? [String] ?? [] }
        let references = files.compactMap { (objects[$0] as? [String: Any])?["fileRef"] as? String }
        let folders = target["fileSystemSynchronizedGroups"] as? [String] ?? []
        // The groups' paths once each, not once per file in them.
        var resolved: [String: String?] = [:]
        return (references + folders).compactMap { path(of: $0, resolved: &resolved) }
    }

    /// The on-disk path of a file or group object, following `sourceTree`.
    func path(of id: String) -> String? {
        var resolved: [String: String?] = [:]
        return path(of: id, resolved: &resolved)
    }

    /// `path(of:)`, with the objects resolved so far (by ID) to look up and add to.
    private func path(of id: String, depth: Int = 0, resolved: inout [String: String?]) -> String? {
        if let known = resolved[id] { return known }
        let path = unmemoizedPath(of: id, depth: depth, resolved: &resolved)
        resolved[id] = path
        return path
    }

    private func unmemoizedPath(of id: String, depth: Int, resolved: inout [String: String?]) -> String? {
        guard depth < 64, let object = objects[id] as? [String: Any] else { return nil }
        let own = object["path"] as? String
        switch object["sourceTree"] as? String ?? "<group>" {
        case "<absolute>":
            return own.map(XcodePath.normalize)
        case "SOURCE_ROOT", "SRCROOT", "PROJECT_DIR":
            return XcodePath.resolve(own ?? ".", relativeTo: projectDirectory)
        case "<group>":
            let parentPath: String
            if id == mainGroup {
                parentPath = projectDirectory
            } else if let parent = parents[id] {
                guard let parentResolved = path(of: parent, depth: depth + 1, resolved: &resolved) else { return nil }
                parentPath = parentResolved
            } else {
                parentPath = projectDirectory
            }
            return own.map { XcodePath.resolve($0, relativeTo: parentPath) } ?? parentPath
        default:
            // BUILT_PRODUCTS_DIR, SDKROOT, DEVELOPER_DIR: not in the source tree.
            return nil
        }
    }
}
