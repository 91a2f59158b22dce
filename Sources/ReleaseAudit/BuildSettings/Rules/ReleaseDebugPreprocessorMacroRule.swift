import ShipcheckCore

package enum ReleaseDebugPreprocessorMacroRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-debug-preprocessor-macro",
        summary: "A release configuration defines DEBUG for C, Objective-C or C++.",
        rationale: """
            `DEBUG=1` in GCC_PREPROCESSOR_DEFINITIONS (or `-DDEBUG` in a C target's cSettings) \
            turns on every `#if DEBUG` block of the C-family code in the shipping build.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                // !$*UTF8*$!
                {
                    objects = {
                        CORE_PROJECT = {isa = PBXProject; buildConfigurationList = CORE_PROJECT_CONFIGS; targets = (); };
                        CORE_PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (CORE_PROJECT_RELEASE); };
                        CORE_PROJECT_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {↓GCC_PREPROCESSOR_DEFINITIONS = ("DEBUG=1", "$(inherited)");}; };
                    };
                    rootObject = CORE_PROJECT;
                }
                """, path: "Core.xcodeproj/project.pbxproj"),
            RuleExample(
                """
                ↓GCC_PREPROCESSOR_DEFINITIONS = DEBUG
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .target(name: "CCore", cSettings: [↓.define("DEBUG", to: "1")])
                """, path: "Package.swift")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                GCC_PREPROCESSOR_DEFINITIONS = DEBUG=0 NDEBUG=1
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .target(name: "CCore", cSettings: [.define("DEBUG", to: "1", .when(configuration: .debug))])
                """, path: "Package.swift")
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "GCC_PREPROCESSOR_DEFINITIONS",
            offending: { words, flags in
                words.filter { word in
                    let parts = word.split(separator: "=", maxSplits: 1)
                    guard let name = parts.first, flags.contains(String(name)) else { return false }
                    return parts.count == 1 || parts[1] != "0"
                }
            },
            message: { "GCC_PREPROCESSOR_DEFINITIONS defines \($0) for C, Objective-C and C++ in the shipping build" },
            fix: "define it in the Debug configuration only")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        guard case .define(let name) = setting.call, setting.debugOnlyFlags.contains(name), setting.isCFamily else {
            return []
        }
        return ["\(setting.target) defines \(name) for C-family code in release builds (\(setting.kind))"]
    }
}
