import ShipcheckCore
import SourceScan
import XcodeProject

/// The build-settings part of the audit: release configurations of every Xcode project,
/// XcodeGen spec and `.xcconfig` under the root, and every `Package.swift` manifest.
public struct BuildSettingsCheck: Sendable {
    public let root: String
    public let configuration: Configuration

    public init(root: String, configuration: Configuration) {
        self.root = root
        self.configuration = configuration
    }

    public func run() -> CheckResult {
        let enumeration = FileEnumerator(root: root, configuration: configuration).enumerate()
        var result = CheckResult(inputErrors: enumeration.errors)
        let catalog = XcodeSettingsCatalog(files: enumeration.files, root: root, keys: XcodeBuildSettingsAudit.checkedKeys,
                                           sizeLimit: configuration.maxFileSize)
        result.inputErrors += catalog.errors
        let releases = ReleaseConfigurations(configuration: configuration, files: enumeration.files)
        var findings = XcodeBuildSettingsAudit(debugOnlyFlags: configuration.debugOnlyFlags, releaseConfigurations: releases).audit(catalog)
        result.filesScanned += catalog.projects.count + catalog.standaloneXCConfigs.count

        let manifests = enumeration.files.filter { $0.relativePath == "Package.swift" || $0.relativePath.hasSuffix("/Package.swift") }
        let manifestAudit = PackageManifestAudit(debugOnlyFlags: configuration.debugOnlyFlags)
        for manifest in manifests {
            do {
                let bytes = try SafeFileReader.read(manifest.path, displayPath: manifest.relativePath, sizeLimit: configuration.maxFileSize)
                // Checked as every Swift source is: UTF-8, and #if nesting the parser survives.
                let source = try SwiftSource.text(of: bytes, path: manifest.relativePath)
                findings += manifestAudit.audit(source: source, path: manifest.relativePath)
                result.filesScanned += 1
            } catch {
                result.inputErrors.append(error)
            }
        }
        result.findings = configuration.applyingSeverities(to: findings)
        return result
    }
}
