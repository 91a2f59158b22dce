import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckCore
import Synchronization
import XcodeProject

/// The App Store's privacy checks one step before the archive (`audit` on a project): for
/// each app target of the scan's Xcode projects and XcodeGen specs, the required reason APIs
/// and purpose-string APIs its Swift and C-family sources use, against the PrivacyInfo.xcprivacy
/// in its resources and its Info.plist (INFOPLIST_FILE, INFOPLIST_KEY_… settings); and every
/// privacy manifest of the tree, validated. Sources, manifests and property lists are taken
/// from the scan's one read pass (no file is opened again); the projects from the shared model.
/// The registry's `PrivacyProjectRule`s judge what it gathers.
package final class PrivacyDeclarationsCheck: FileCheck {
    package let name = "privacy declarations"
    private let configuration: Configuration
    /// The privacy rules that run, in the registry's order.
    private let rules: [any PrivacyProjectRule.Type]
    /// What they read.
    private let inputs: PrivacyProjectInputs
    /// Leaves out the code the configured release build never compiles.
    private let scanner: SourceAPIScanner
    /// What decides a file's uses in the result cache besides its bytes and path.
    private let resultKey: String
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        /// Each source file's uses from earlier runs (`ScanContext.results`).
        var results: (any ResultStore)?
        var filesRead = 0
        var uses: [(index: Int, path: String, uses: [LocatedUse])] = []
        var manifests: [(index: Int, path: String, manifest: PrivacyManifest)] = []
        /// Property lists by path: their purpose strings, or nil when they do not parse.
        var propertyLists: [String: [String: String]?] = [:]
    }

    struct LocatedUse: Codable {
        var use: SourceAPIScanner.Use
        var line: Int
        var column: Int
    }

    /// `rules`: the registry's; this check runs the privacy rules among them that are on.
    package init(rules: [any Rule.Type], configuration: Configuration) {
        self.configuration = configuration
        // Rules about the store apply where the app is meant for it (`bundle.distribution`).
        let forStore = configuration.settings(BundleSettings.self).distribution.map { $0 == .appStore } ?? true
        self.rules =
            forStore
            ? rules.reading(.privacyProject, as: (any PrivacyProjectRule.Type).self).filter {
                configuration.isEnabled($0.description)
            }
            : []
        inputs = self.rules.reduce(into: []) { $0.formUnion($1.projectInputs) }
        scanner = SourceAPIScanner(flags: ReleaseBuildFlags(configuration))
        resultKey = configuration.resultKey
    }

    /// App targets are read from the project model only for rules that judge their sources.
    private var readsTargets: Bool { inputs.contains(.sources) }

    package func needsEarly(_ file: ScannedFile) -> Bool { readsTargets && ProjectModel.isProjectFile(file) }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        let model = readsTargets ? ProjectModel.of(context, configuration: configuration) : nil
        state.withLock {
            $0.model = model
            $0.results = context.results
        }
        return []
    }

    static let cFamilyExtensions: Set = ["m", "mm", "c", "cc", "cpp"]

    private static func language(of path: String) -> SourceAPIScanner.Language? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...]
        if ext == "swift" { return SwiftTargets.isManifest(path) ? nil : .swift }
        return cFamilyExtensions.contains(String(ext)) ? .cFamily : nil
    }

    private static func isManifest(_ path: String) -> Bool {
        path == "PrivacyInfo.xcprivacy" || path.hasSuffix("/PrivacyInfo.xcprivacy")
    }

    package func wants(_ file: ScannedFile) -> Bool {
        let path = file.relativePath
        if Self.isManifest(path) { return inputs.contains(.manifests) }
        if path.hasSuffix(".plist") { return inputs.contains(.propertyLists) }
        return readsTargets && Self.language(of: path) != nil
    }

    package func inspect(_ contents: FileContents) {
        let path = contents.file.relativePath
        let language = Self.language(of: path)
        guard Self.isManifest(path) || path.hasSuffix(".plist") || language != nil else { return }
        let result = slot(path).result(of: contents) { () -> PrivacyFileResult in
            if Self.isManifest(path) { return .manifest(contents.withBytes { PrivacyManifest(bytes: $0.array()) }) }
            if let language { return .source(uses(in: contents, language: language)) }
            return .propertyList(contents.withBytes { Self.purposeStrings(in: $0) })
        }
        take(result, path: path, index: contents.index)
    }

    package func inspectUnchanged(_ file: UnchangedFile) -> Bool {
        let path = file.file.relativePath
        guard let kept = slot(path).result(PrivacyFileResult.self, of: file) else { return false }
        take(kept, path: path, index: file.index)
        return true
    }

    private func slot(_ path: String) -> FileResultSlot {
        FileResultSlot(store: state.withLock { $0.results }, kind: name, path: path, settings: resultKey)
    }

    /// What the check keeps of one file, read now or in an earlier run.
    private func take(_ result: PrivacyFileResult, path: String, index: Int) {
        state.withLock { state in
            switch result {
            case .manifest(let manifest): state.manifests.append((index, path, manifest))
            case .propertyList(let strings): state.propertyLists[path] = strings
            case .source(let located):
                state.filesRead += 1
                if !located.isEmpty { state.uses.append((index, path, located)) }
            }
        }
    }

    /// The source file's calls of listed APIs, with their places.
    private func uses(in contents: FileContents, language: SourceAPIScanner.Language) -> [LocatedUse] {
        let found = contents.withBytes { scanner.scan($0, language: language) }
        guard !found.isEmpty else { return [] }
        let lines = contents.withBytes { LineTable($0) }
        return found.map { use in
            let position = lines.position(of: use.offset)
            return LocatedUse(use: use, line: position.line, column: position.column)
        }
    }

    /// The `…UsageDescription` entries of a property list (values as text), or nil when it is
    /// not one; most property lists hold none and are not parsed.
    static func purposeStrings(in bytes: borrowing ByteView) -> [String: String]? {
        guard bytes.contains("UsageDescription") else { return [:] }
        guard let root = PropertyListReader.propertyList(from: bytes.array()) as? [String: Any] else {
            return nil
        }
        return root.filter { $0.key.hasSuffix("UsageDescription") }.mapValues { $0 as? String ?? "" }
    }

    package func finish() -> CheckResult {
        state.withLock { state in
            var result = CheckResult(filesScanned: state.filesRead + state.manifests.count)
            let manifests = state.manifests.sorted { $0.index < $1.index }
            for (_, path, manifest) in manifests {
                result.findings += rules.flatMap { $0.findings(in: manifest, at: path) }
            }
            guard let model = state.model else { return result }
            let uses = state.uses.sorted { $0.index < $1.index }
            var seen: Set<String> = []
            for scope in model.catalog.view(keys: []).scopes
            where model.releaseConfigurations.isRelease(scope.configurationName) {
                guard let target = scope.target, target.isApplication else { continue }
                let targetUses = uses.filter { XcodeTarget.contains(target.sources, $0.path) }
                guard !targetUses.isEmpty else { continue }
                let owned = manifests.filter { XcodeTarget.contains(target.resources, $0.path) }
                let app = AppTarget(
                    target: target, scope: scope, uses: targetUses, manifests: owned.map { ($0.path, $0.manifest) },
                    propertyLists: state.propertyLists)
                result.findings += rules.flatMap { $0.findings(in: app) }.filter {
                    seen.insert("\($0.ruleID) \($0.identity ?? "")").inserted
                }
            }
            return result
        }
    }
}

/// What the check keeps of one file in the result cache (each kind of file it reads).
private enum PrivacyFileResult: Codable {
    case manifest(PrivacyManifest)
    /// The property list's purpose strings, or nil when it does not parse.
    case propertyList([String: String]?)
    case source([PrivacyDeclarationsCheck.LocatedUse])
}
