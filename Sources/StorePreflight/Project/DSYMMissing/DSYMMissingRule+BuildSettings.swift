import ReleaseAudit
import ShipcheckCore

/// `preflight-dsym-missing` one step earlier: DEBUG_INFORMATION_FORMAT = dwarf in a release
/// configuration makes no dSYM, so the archive will lack the image's UUID.
extension DSYMMissingRule: BuildSettingRule {
    package static let settingChecks = [
        BuildSettingCheck(
            key: "DEBUG_INFORMATION_FORMAT",
            offending: { words, _ in words.filter { $0 == "dwarf" } },
            message: { _ in
                "DEBUG_INFORMATION_FORMAT is dwarf: the archive gets no dSYM, so crash reports of this release cannot be symbolicated"
            },
            fix: "set DEBUG_INFORMATION_FORMAT = dwarf-with-dsym for release")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] { [] }
}
