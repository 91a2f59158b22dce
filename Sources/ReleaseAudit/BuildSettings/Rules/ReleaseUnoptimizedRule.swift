import ShipcheckCore

package enum ReleaseUnoptimizedRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-unoptimized",
        summary: "A release configuration turns optimisation off.",
        rationale: """
            SWIFT_OPTIMIZATION_LEVEL = -Onone or GCC_OPTIMIZATION_LEVEL = 0 in a Release \
            configuration ships a slow build that also keeps preview and test code the optimiser \
            would have removed.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                // !$*UTF8*$!
                {
                    objects = {
                        TOOL_PROJECT = {isa = PBXProject; buildConfigurationList = TOOL_PROJECT_CONFIGS; targets = (TOOL); };
                        TOOL_PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (TOOL_PROJECT_RELEASE); };
                        TOOL_PROJECT_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {↓SWIFT_OPTIMIZATION_LEVEL = "-Onone";}; };
                        TOOL = {isa = PBXNativeTarget; buildConfigurationList = TOOL_CONFIGS; name = Tool; };
                        TOOL_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (TOOL_RELEASE); };
                        TOOL_RELEASE = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
                    };
                    rootObject = TOOL_PROJECT;
                }
                """, path: "Tool.xcodeproj/project.pbxproj"),
            RuleExample(
                """
                ↓GCC_OPTIMIZATION_LEVEL = 0
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .executableTarget(name: "Tool", swiftSettings: [↓.unsafeFlags(["-Onone"])])
                """, path: "Package.swift")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                SWIFT_OPTIMIZATION_LEVEL = -O
                GCC_OPTIMIZATION_LEVEL = s
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .executableTarget(name: "Tool", swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .debug))])
                """, path: "Package.swift")
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "SWIFT_OPTIMIZATION_LEVEL",
            offending: { words, _ in words.filter { $0 == "-Onone" } },
            message: { _ in
                "SWIFT_OPTIMIZATION_LEVEL is -Onone: the release build is unoptimised and keeps code the optimiser would remove"
            },
            fix: "use -O (or -Osize) for release"),
        BuildSettingCheck(
            key: "GCC_OPTIMIZATION_LEVEL",
            offending: { words, _ in words.filter { $0 == "0" } },
            message: { _ in "GCC_OPTIMIZATION_LEVEL is 0: C-family code ships unoptimised" },
            fix: "use s (or 2/3) for release")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        setting.flags.filter { $0 == "-Onone" }.map { _ in
            "\(setting.target) compiles release builds with -Onone (\(setting.kind) unsafeFlags)"
        }
    }
}
