import ScanEngine
import ShipcheckCore
import Synchronization

/// The project files of a scan, read once (before the other files) into one model that every
/// check reads: the Xcode projects, XcodeGen specs and `.xcconfig` files (build settings per
/// target and configuration, `DEVELOPMENT_ASSET_PATHS`), the shared schemes (which
/// configurations Archive builds), the SwiftPM layout (which Swift files form a target) and
/// which files are test code (`TestScope`).
/// Built once per scan for all checks: `ProjectModel.of(context, configuration:)`.
package final class ProjectModel: Sendable {
    package let catalog: XcodeSettingsCatalog
    package let releaseConfigurations: ReleaseConfigurations
    package let swiftTargets: SwiftTargets
    private let configuration: Configuration
    private let assets = Mutex<DevelopmentAssets?>(nil)
    private let manifests: [(path: String, text: String)]
    private let tests = Mutex<TestScope?>(nil)

    /// The files a check using the model must have read early (`ReadPassCheck.needsEarly`).
    package static func isProjectFile(_ file: ScannedFile) -> Bool {
        XcodeSettingsCatalog.isProjectFile(file.relativePath) || ReleaseConfigurations.isScheme(file.relativePath)
            || SwiftTargets.isManifest(file.relativePath)
    }

    /// The scan's model, built by the first check that asks (every check of a scan has the
    /// same configuration).
    package static func of(_ context: ScanContext, configuration: Configuration) -> ProjectModel {
        context.shared(ProjectModel.self) { ProjectModel($0, configuration: configuration) }
    }

    init(_ context: ScanContext, configuration: Configuration) {
        self.configuration = configuration
        catalog = XcodeSettingsCatalog(
            files: context.files, root: context.root, sizeLimit: context.scope.maxFileSize,
            read: { path, shown, limit throws(InputError) in
                try context.contents(ofPath: path, displayPath: shown, sizeLimit: limit)
            },
            report: { context.report($0) }, results: context.results)
        let schemes = context.files.filter { ReleaseConfigurations.isScheme($0.relativePath) }.compactMap(
            context.earlyContents(of:))
        releaseConfigurations = ReleaseConfigurations(configuration: configuration, schemes: schemes)
        swiftTargets = SwiftTargets(swiftFiles: context.files.map(\.relativePath).filter { $0.hasSuffix(".swift") })
        manifests = context.files.filter { SwiftTargets.isManifest($0.relativePath) }.compactMap { file in
            context.earlyContents(of: file).map { (file.relativePath, String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// Which files are test code, from every project's targets and every manifest's.
    package var testScope: TestScope {
        if let known = tests.withLock({ $0 }) { return known }
        let built = TestScope(projects: catalog.view(keys: []).projects, manifests: manifests)
        tests.withLock { $0 = built }
        return built
    }

    /// `DEVELOPMENT_ASSET_PATHS` of every project, spec and `.xcconfig`, resolved.
    package var developmentAssets: DevelopmentAssets {
        if let known = assets.withLock({ $0 }) { return known }
        let built = DevelopmentAssets(catalog: catalog)
        assets.withLock { $0 = built }
        return built
    }

    /// Why the file is development-only (which setting or `development-paths` names it), or nil.
    package func developmentReason(for path: String) -> String? {
        if let asset = developmentAssets.paths.first(where: {
            path == $0.path || path.hasPrefix($0.path == "." ? "" : $0.path + "/")
        }) {
            let place = asset.setting.line.map { "\(asset.setting.file):\($0)" } ?? asset.setting.file
            return "DEVELOPMENT_ASSET_PATHS '\(asset.path)' at \(place)"
        }
        if configuration.developmentPaths.matches(path) {
            return "development-paths in \(configuration.sourcePath ?? Configuration.fileName)"
        }
        return nil
    }
}
