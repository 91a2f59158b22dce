import ScanEngine
import ShipcheckCore
import XcodeProject

package enum DevAssetPathMissingRule: ProjectRule {
    package static let description = RuleDescription(
        id: "dev-asset-path-missing",
        summary: "A DEVELOPMENT_ASSET_PATHS entry names a path that does not exist",
        rationale: """
            Xcode fails every build of the target ("One of the paths in DEVELOPMENT_ASSET_PATHS \
            does not exist") when a listed folder is missing — typically after the Preview Content \
            folder was renamed or moved. The finding points at the setting in the project file \
            (or `.xcconfig`, or `project.yml`) and names the target and configuration.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                // !$*UTF8*$!
                {
                    objects = {
                        PROJECT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; targets = (APP); };
                        PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_DEBUG); };
                        PROJECT_DEBUG = {isa = XCBuildConfiguration; buildSettings = {}; name = Debug; };
                        APP = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; name = App; };
                        APP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_DEBUG); };
                        APP_DEBUG = {isa = XCBuildConfiguration; name = Debug; buildSettings = {↓DEVELOPMENT_ASSET_PATHS = "\\"App/Preview Content\\"";}; };
                    };
                    rootObject = PROJECT;
                }
                """, path: "App.xcodeproj/project.pbxproj"),
            RuleExample(
                """
                name: App
                targets:
                  App:
                    type: application
                    settings:
                      ↓DEVELOPMENT_ASSET_PATHS: App/Exists $(SRCROOT)/Moved
                """, path: "project.yml", companions: ["App/Exists/Sample.json": "{}"]),
            RuleExample(
                """
                ↓DEVELOPMENT_ASSET_PATHS = $(SRCROOT)/Preview\\ Content
                """, path: "Config/Shared.xcconfig")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                DEVELOPMENT_ASSET_PATHS = "App/Preview Content"
                """, path: "Shared.xcconfig", companions: ["App/Preview Content/Sample.json": "{}"]),
            RuleExample(
                """
                DEVELOPMENT_ASSET_PATHS =
                """, path: "Config/Shared.xcconfig")
        ]
    )

    package static func check(_ model: ProjectModel, root: String) -> [Finding] {
        // One finding per setting and path, naming every scope it applies in.
        var scopes: [String: [String]] = [:]
        var firstSeen: [String: DevelopmentAssetPath] = [:]
        var order: [String] = []
        for asset in model.developmentAssets.paths
        where FileKind.of(XcodeSettingsCatalog.onDisk(asset.path, root: root)) == nil {
            let key = "\(asset.setting.file)\u{1F}\(asset.setting.line ?? 0)\u{1F}\(asset.path)"
            if firstSeen[key] == nil {
                order.append(key)
                firstSeen[key] = asset
            }
            scopes[key, default: []].append(asset.scope)
        }
        return order.map { key in
            let asset = firstSeen[key]!
            let location: Location =
                asset.setting.line.map {
                    .source(SourceLocation(path: asset.setting.file, line: $0, column: asset.setting.column ?? 1))
                } ?? .file(path: asset.setting.file)
            let applies = Array(Set(scopes[key]!)).sorted().joined(separator: "; ")
            return Finding(
                ruleID: id, severity: description.defaultSeverity,
                message:
                    "DEVELOPMENT_ASSET_PATHS names '\(asset.path)', which does not exist; Xcode fails the build (\(applies))",
                location: location, snippet: "DEVELOPMENT_ASSET_PATHS = \(asset.setting.value.text)",
                fixHint: "create the folder, or fix the path in the build setting",
                identity: "DEVELOPMENT_ASSET_PATHS \(asset.path)")
        }
    }
}
