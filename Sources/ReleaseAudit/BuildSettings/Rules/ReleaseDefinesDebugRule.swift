import ShipcheckCore

package enum ReleaseDefinesDebugRule: BuildSettingRule {
    package static let description = RuleDescription(
        id: "release-defines-debug",
        summary: "A release configuration sets the DEBUG compilation condition.",
        rationale: """
            With DEBUG set in a Release configuration every `#if DEBUG` guard is silently off: \
            previews, mocks, logging and test hooks compile into the build that ships. Checked: \
            SWIFT_ACTIVE_COMPILATION_CONDITIONS, -DDEBUG / -D DEBUG in OTHER_SWIFT_FLAGS (in \
            `project.pbxproj`, `.xcconfig` and XcodeGen `project.yml`), and `.define("DEBUG")` in a \
            package's swiftSettings without `.when(configuration: .debug)`.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                // !$*UTF8*$!
                {
                    objects = {
                        PROJECT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; targets = (APP); };
                        PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_RELEASE); };
                        PROJECT_RELEASE = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
                        APP = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; name = App; };
                        APP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_RELEASE); };
                        APP_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {↓SWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";}; };
                    };
                    rootObject = PROJECT;
                }
                """, path: "App.xcodeproj/project.pbxproj"),
            RuleExample(
                """
                ↓OTHER_SWIFT_FLAGS = $(inherited) -D DEBUG
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .target(name: "App", swiftSettings: [↓.define("DEBUG")])
                """, path: "Package.swift"),
            RuleExample(
                """
                .target(name: "App", swiftSettings: [↓.define("DEBUG", .when(platforms: [.iOS]))])
                """, path: "Package.swift"),
            RuleExample(
                """
                .target(name: "App", swiftSettings: [↓.unsafeFlags(["-D", "DEBUG"])])
                """, path: "Package.swift")
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                name: App
                targets:
                  App:
                    type: application
                    settings:
                      configs:
                        Debug:
                          SWIFT_ACTIVE_COMPILATION_CONDITIONS: DEBUG
                """, path: "project.yml"),
            RuleExample(
                """
                SWIFT_ACTIVE_COMPILATION_CONDITIONS = DEBUGGER_UI
                """, path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                """
                .target(name: "App", swiftSettings: [.define("DEBUG", .when(configuration: .debug))])
                """, path: "Package.swift"),
            RuleExample(
                """
                .target(name: "App", swiftSettings: [.define("DEBUGGER_UI")])
                """, path: "Package.swift"),
            RuleExample(
                """
                // .define("DEBUG") was removed
                let name = ".define(\\"DEBUG\\")"
                """, path: "Package.swift")
        ]
    )

    package static let settingChecks = [
        BuildSettingCheck(
            key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS",
            offending: { words, flags in words.filter { flags.contains($0) } },
            message: {
                "\($0) is set in SWIFT_ACTIVE_COMPILATION_CONDITIONS: every #if \($0) block compiles into the shipping build"
            },
            fix: "remove it from the release configuration (keep it in Debug only)"),
        BuildSettingCheck(
            key: "OTHER_SWIFT_FLAGS",
            offending: { words, flags in
                words.enumerated().compactMap { index, word in
                    if word.hasPrefix("-D"), word.count > 2, flags.contains(String(word.dropFirst(2))) { return word }
                    if word == "-D", index + 1 < words.count, flags.contains(words[index + 1]) {
                        return "-D \(words[index + 1])"
                    }
                    return nil
                }
            },
            message: { "OTHER_SWIFT_FLAGS passes \($0): the condition is set in the shipping build" },
            fix: "remove the flag from the release configuration")
    ]

    package static func manifestProblems(_ setting: ManifestSetting) -> [String] {
        switch setting.call {
        case .define(let name) where setting.debugOnlyFlags.contains(name) && !setting.isCFamily:
            return [
                "\(setting.target) defines \(name) in release builds (\(setting.kind)): every #if \(name) block compiles into the shipping build"
            ]
        case .define:
            return []
        case .unsafeFlags:
            return setting.debugDefines.map {
                "\(setting.target) passes \($0) in release builds (\(setting.kind) unsafeFlags)"
            }
        }
    }
}
