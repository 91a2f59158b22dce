import ShipcheckCore
import XcodeProject

/// `dev-asset-path-missing`: one finding per setting that names a path that is not there.
enum MissingAssetPaths {
    static func findings(for paths: [DevelopmentAssetPath], root: String, severity: Severity) -> [Finding] {
        var scopes: [String: [String]] = [:]
        var firstSeen: [String: DevelopmentAssetPath] = [:]
        var order: [String] = []
        for asset in paths where FileKind.of(XcodeSettingsCatalog.onDisk(asset.path, root: root)) == nil {
            let key = "\(asset.setting.file)\u{1F}\(asset.setting.line ?? 0)\u{1F}\(asset.path)"
            if firstSeen[key] == nil { order.append(key); firstSeen[key] = asset }
            scopes[key, default: []].append(asset.scope)
        }
        return order.map { key in
            let asset = firstSeen[key]!
            let location: Location = asset.setting.line.map {
                .source(SourceLocation(path: asset.setting.file, line: $0, column: asset.setting.column ?? 1))
            } ?? .file(path: asset.setting.file)
            let applies = Array(Set(scopes[key]!)).sorted().joined(separator: "; ")
            var finding = Finding(
                ruleID: DevAssetPathMissingRule.id, severity: severity,
                message: "DEVELOPMENT_ASSET_PATHS names '\(asset.path)', which does not exist; Xcode fails the build (\(applies))",
                location: location, snippet: "DEVELOPMENT_ASSET_PATHS = \(asset.setting.value.text)",
                identity: "DEVELOPMENT_ASSET_PATHS \(asset.path)")
            finding.fixHint = "create the folder, or fix the path in the build setting"
            return finding
        }
    }
}
