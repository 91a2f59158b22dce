import ShipcheckCore

/// ENABLE_BITCODE = YES in a configuration that is archived: the project-side twin of the
/// artifact's bitcode check (ITMS-90482).
package enum ReleaseBitcodeRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-bitcode",
        summary: "A release configuration sets ENABLE_BITCODE = YES: the store refuses bitcode (ITMS-90482).",
        rationale: """
            Xcode 14 deprecated bitcode and App Store Connect no longer accepts it: an archive \
            whose images carry an __LLVM segment (__bundle section) is rejected with "ITMS-90482: \
            Invalid Executable - The executable contains bitcode". Checked where the setting is \
            written (project.pbxproj, .xcconfig, XcodeGen) for every release configuration, and \
            `-embed-bitcode` / `-fembed-bitcode` passed to release builds in a Package.swift, so the \
            problem shows in the pull request instead of after the archive.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                ↓ENABLE_BITCODE = YES
                """, path: "Config/Release.xcconfig",
                companions: ["project.yml": "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"]),
            RuleExample("""
                name: App
                targets:
                  App:
                    type: application
                    settings:
                      configs:
                        Release:
                          ↓ENABLE_BITCODE: true
                """, path: "project.yml"),
            RuleExample("""
                .target(name: "Core", cSettings: [↓.unsafeFlags(["-fembed-bitcode"])])
                """, path: "Package.swift"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                ENABLE_BITCODE = NO
                """, path: "Config/Release.xcconfig",
                companions: ["project.yml": "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"]),
            RuleExample("""
                ENABLE_BITCODE = YES
                """, path: "Config/Debug.xcconfig",
                companions: ["project.yml": "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Debug: Config/Debug.xcconfig\n"]),
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "ENABLE_BITCODE",
            offending: { words, _ in words.filter { $0.uppercased() == "YES" } },
            message: { _ in "ENABLE_BITCODE is YES: App Store Connect rejects archives with bitcode (ITMS-90482 Invalid Executable)" },
            fix: "set ENABLE_BITCODE = NO (or remove it: Xcode 14 and later default to NO)"),
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        setting.flags.filter { $0 == "-embed-bitcode" || $0 == "-fembed-bitcode" }.map {
            "\(setting.target) passes \($0) to release builds (\(setting.kind) unsafeFlags): App Store Connect rejects bitcode (ITMS-90482)"
        }
    }
}
