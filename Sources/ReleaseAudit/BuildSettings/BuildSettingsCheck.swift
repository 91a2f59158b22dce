import ScanEngine
import ShipcheckCore
import SourceScan
import Synchronization
import XcodeProject

/// The build-settings check of a scan: the release configurations of every Xcode project,
/// XcodeGen spec and `.xcconfig` in the project model, and every `Package.swift` manifest
/// (parsed once, shared with any other check reading its syntax), against the build-setting
/// rules it is given.
package final class BuildSettingsCheck: FileCheck {
    package let name = "build settings"
    private let rules: [any BuildSettingRule.Type]
    private let configuration: Configuration
    private let manifests: PackageManifestAudit
    private let state = Mutex(State())

    private struct State {
        var model: ProjectModel?
        var manifestsRead = 0
        var manifestFindings: [(index: Int, findings: [Finding])] = []
    }

    /// `rules`: the registry's rules; this check runs the build-setting rules among them.
    package init(rules: [any Rule.Type], configuration: Configuration) {
        self.rules = rules.reading(.buildSetting, as: (any BuildSettingRule.Type).self)
        self.configuration = configuration
        manifests = PackageManifestAudit(rules: self.rules, debugOnlyFlags: configuration.debugOnlyFlags)
    }

    package func needsEarly(_ file: ScannedFile) -> Bool { ProjectModel.isProjectFile(file) }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        state.withLock { $0.model = ProjectModel.of(context, configuration: configuration) }
        return []
    }

    package func wants(_ file: ScannedFile) -> Bool {
        file.relativePath == "Package.swift" || file.relativePath.hasSuffix("/Package.swift")
    }

    /// Manifests are checked as every Swift source is: UTF-8, and `#if` nesting the parser survives.
    package func inspect(_ contents: FileContents) {
        guard SwiftText.isParseable(contents), let file = ParsedSwiftFile.of(contents) else { return }
        let findings = manifests.audit(tree: file.tree, path: file.path)
        state.withLock { state in
            state.manifestsRead += 1
            state.manifestFindings.append((contents.index, findings))
        }
    }

    package func finish() -> CheckResult {
        state.withLock { state in
            var result = CheckResult(filesScanned: state.manifestsRead)
            if let model = state.model {
                let catalog = model.catalog.view(keys: XcodeBuildSettingsAudit.keys(of: rules))
                result.findings = XcodeBuildSettingsAudit(
                    rules: rules, debugOnlyFlags: configuration.debugOnlyFlags,
                    releaseConfigurations: model.releaseConfigurations
                ).audit(catalog)
                result.filesScanned += catalog.projects.count + catalog.standaloneXCConfigs.count
            }
            result.findings += state.manifestFindings.sorted { $0.index < $1.index }.flatMap(\.findings)
            return result
        }
    }
}
