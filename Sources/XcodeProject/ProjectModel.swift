import ShipcheckCore
import Synchronization

/// The project files of a scan, read once (before the other files) into one model that every
/// check reads: the Xcode projects, XcodeGen specs and `.xcconfig` files (build settings per
/// target and configuration, `DEVELOPMENT_ASSET_PATHS`), the shared schemes (which
/// configurations Archive builds) and the SwiftPM layout (which Swift files form a target).
/// Built once per scan for all checks: `ProjectModel.of(context)`.
public final class ProjectModel: Sendable {
    public let catalog: XcodeSettingsCatalog
    public let releaseConfigurations: ReleaseConfigurations
    public let swiftTargets: SwiftTargets
    private let configuration: Configuration
    private let assets = Mutex<DevelopmentAssets?>(nil)

    /// The files a check using the model must have read early (`FileCheck.needsEarly`).
    public static func isProjectFile(_ file: ScannedFile) -> Bool {
        XcodeSettingsCatalog.isProjectFile(file.relativePath) || ReleaseConfigurations.isScheme(file.relativePath)
    }

    /// The scan's model, built by the first check that asks.
    public static func of(_ context: ScanContext) -> ProjectModel {
        context.shared(ProjectModel.self) { ProjectModel($0) }
    }

    init(_ context: ScanContext) {
        configuration = context.configuration
        catalog = XcodeSettingsCatalog(
            files: context.files, root: context.root, sizeLimit: context.configuration.maxFileSize,
            read: { path, shown, limit throws(InputError) in try context.contents(ofPath: path, displayPath: shown, sizeLimit: limit) },
            report: { context.report($0) })
        let schemes = context.files.filter { ReleaseConfigurations.isScheme($0.relativePath) }.compactMap(context.earlyContents(of:))
        releaseConfigurations = ReleaseConfigurations(configuration: context.configuration, schemes: schemes)
        swiftTargets = SwiftTargets(swiftFiles: context.files.map(\.relativePath).filter { $0.hasSuffix(".swift") })
    }

    /// `DEVELOPMENT_ASSET_PATHS` of every project, spec and `.xcconfig`, resolved.
    public var developmentAssets: DevelopmentAssets {
        if let known = assets.withLock({ $0 }) { return known }
        let built = DevelopmentAssets(catalog: catalog)
        assets.withLock { $0 = built }
        return built
    }

    /// Why the file is development-only (which setting or `development-paths` names it), or nil.
    public func developmentReason(for path: String) -> String? {
        if let asset = developmentAssets.paths.first(where: { path == $0.path || path.hasPrefix($0.path == "." ? "" : $0.path + "/") }) {
            let place = asset.setting.line.map { "\(asset.setting.file):\($0)" } ?? asset.setting.file
            return "DEVELOPMENT_ASSET_PATHS '\(asset.path)' at \(place)"
        }
        if configuration.developmentPaths.matches(path) {
            return "development-paths in \(configuration.sourcePath ?? Configuration.fileName)"
        }
        return nil
    }
}
