import ShipcheckCore

/// DEBUG_INFORMATION_FORMAT = dwarf in a configuration that is archived: the archive gets no
/// dSYM, the project-side twin of the archive's missing-dSYM check.
package enum ReleaseDwarfWithoutDSYMRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-dwarf-without-dsym",
        summary: "A release configuration sets DEBUG_INFORMATION_FORMAT = dwarf: the archive will have no dSYM.",
        rationale: """
            With DEBUG_INFORMATION_FORMAT = dwarf the debug information stays in the object files \
            and no dSYM bundle is made, so the .xcarchive's dSYMs folder lacks the image's UUID and \
            crash reports of that release cannot be symbolicated (App Store Connect, Xcode \
            Organizer, crash reporters all need the dSYM). Release configurations should use \
            dwarf-with-dsym. Checked where the setting is written (project.pbxproj, .xcconfig, \
            XcodeGen), so the gap shows before the archive is made.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                // !$*UTF8*$!
                {
                    objects = {
                        PROJECT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; targets = (APP); };
                        PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_RELEASE); };
                        PROJECT_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {↓DEBUG_INFORMATION_FORMAT = dwarf;}; };
                        APP = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; name = App; productType = "com.apple.product-type.application"; };
                        APP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_RELEASE); };
                        APP_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {}; };
                    };
                    rootObject = PROJECT;
                }
                """, path: "App.xcodeproj/project.pbxproj"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                DEBUG_INFORMATION_FORMAT = dwarf-with-dsym
                """, path: "Config/Release.xcconfig",
                companions: ["project.yml": "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"]),
            RuleExample("""
                DEBUG_INFORMATION_FORMAT = dwarf
                """, path: "Config/Debug.xcconfig",
                companions: ["project.yml": "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Debug: Config/Debug.xcconfig\n"]),
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "DEBUG_INFORMATION_FORMAT",
            offending: { words, _ in words.filter { $0 == "dwarf" } },
            message: { _ in "DEBUG_INFORMATION_FORMAT is dwarf: the archive gets no dSYM, so crash reports of this release cannot be symbolicated" },
            fix: "set DEBUG_INFORMATION_FORMAT = dwarf-with-dsym for release"),
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] { [] }
}
