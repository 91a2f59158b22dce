import ReleaseAudit
import ShipcheckCore

/// `preflight-bitcode` one step earlier: ENABLE_BITCODE = YES in a release configuration, or
/// `-embed-bitcode` / `-fembed-bitcode` passed to release builds by a Package.swift — the same
/// rule, description and ITMS code as the artifact check, so the pull request shows it.
extension BitcodeRule: BuildSettingRule {
    package static let settingChecks = [
        BuildSettingCheck(
            key: "ENABLE_BITCODE",
            offending: { words, _ in words.filter { $0.uppercased() == "YES" } },
            message: { _ in
                "ENABLE_BITCODE is YES: App Store Connect rejects archives with bitcode (ITMS-90482 Invalid Executable)"
            },
            fix: "set ENABLE_BITCODE = NO (or remove it: Xcode 14 and later default to NO)")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        setting.flags.filter { $0 == "-embed-bitcode" || $0 == "-fembed-bitcode" }.map {
            "\(setting.target) passes \($0) to release builds (\(setting.kind) unsafeFlags): App Store Connect rejects bitcode (ITMS-90482)"
        }
    }
}
