import ShipcheckCore

package enum ReleaseTestabilityRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-testability",
        summary: "A release configuration enables testability.",
        rationale: """
            ENABLE_TESTABILITY = YES (`-enable-testing`) exports internal symbols and disables \
            optimisations that depend on access control: a bigger, slower binary whose internals \
            are reachable.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                """
                // !$*UTF8*$!
                {
                    objects = {
                        WIDGET_PROJECT = {isa = PBXProject; buildConfigurationList = WIDGET_PROJECT_CONFIGS; targets = (WIDGET); };
                        WIDGET_PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (WIDGET_PROJECT_RELEASE); };
                        WIDGET_PROJECT_RELEASE = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
                        WIDGET = {isa = PBXNativeTarget; buildConfigurationList = WIDGET_CONFIGS; name = Widget; };
                        WIDGET_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (WIDGET_APPSTORE); };
                        WIDGET_APPSTORE = {isa = XCBuildConfiguration; name = AppStore; buildSettings = {↓ENABLE_TESTABILITY = YES;}; };
                    };
                    rootObject = WIDGET_PROJECT;
                }
                """, path: "Widget.xcodeproj/project.pbxproj"),
            RuleExample(
                """
                name: App
                targets:
                  App:
                    type: application
                    settings:
                      configs:
                        Release:
                          ↓ENABLE_TESTABILITY: true
                """, path: "project.yml"),
            RuleExample(
                """
                .target(name: "Core", swiftSettings: [↓.unsafeFlags(["-enable-testing"])])
                """, path: "Package.swift")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                ENABLE_TESTABILITY = YES
                """, path: "Config/Debug.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Debug: Config/Debug.xcconfig\n"
                ]),
            RuleExample(
                """
                .target(name: "Core", swiftSettings: [.unsafeFlags(["-enable-testing"], .when(configuration: .debug))])
                """, path: "Package.swift")
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "ENABLE_TESTABILITY",
            offending: { words, _ in words.filter { $0.uppercased() == "YES" } },
            message: { _ in
                "ENABLE_TESTABILITY is YES: internal symbols are exported and access-control optimisations are off"
            },
            fix: "set ENABLE_TESTABILITY = NO for release")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        setting.flags.filter { $0 == "-enable-testing" }.map { _ in
            "\(setting.target) enables testability in release builds (\(setting.kind) unsafeFlags)"
        }
    }
}
