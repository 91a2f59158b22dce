import ShipcheckCore

/// Rules for build settings that make a release build behave like a debug build. Each one is
/// checked in `project.pbxproj`, `.xcconfig` and `Package.swift`; examples here are manifests
/// because they carry their own configuration condition (`.when(configuration:)`).
public enum BuildSettingRules {
    public static let releaseDefinesDebug = RuleDescription(
        id: "release-defines-debug",
        summary: "A release configuration sets the DEBUG compilation condition.",
        rationale: """
            With DEBUG set in a Release configuration every `#if DEBUG` guard is silently off: \
            previews, mocks, logging and test hooks compile into the build that ships. Checked: \
            SWIFT_ACTIVE_COMPILATION_CONDITIONS, -DDEBUG / -D DEBUG in OTHER_SWIFT_FLAGS, and \
            `.define("DEBUG")` in a package's swiftSettings without `.when(configuration: .debug)`.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                .target(name: "App", swiftSettings: [↓.define("DEBUG")])
                """, path: "Package.swift"),
            RuleExample("""
                .target(name: "App", swiftSettings: [↓.define("DEBUG", .when(platforms: [.iOS]))])
                """, path: "Package.swift"),
            RuleExample("""
                .target(name: "App", swiftSettings: [↓.unsafeFlags(["-D", "DEBUG"])])
                """, path: "Package.swift"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                .target(name: "App", swiftSettings: [.define("DEBUG", .when(configuration: .debug))])
                """, path: "Package.swift"),
            RuleExample("""
                .target(name: "App", swiftSettings: [.define("DEBUGGER_UI")])
                """, path: "Package.swift"),
            RuleExample("""
                // .define("DEBUG") was removed
                let name = ".define(\\"DEBUG\\")"
                """, path: "Package.swift"),
        ]
    )

    public static let releaseDebugPreprocessorMacro = RuleDescription(
        id: "release-debug-preprocessor-macro",
        summary: "A release configuration defines DEBUG for C, Objective-C or C++.",
        rationale: """
            `DEBUG=1` in GCC_PREPROCESSOR_DEFINITIONS (or `-DDEBUG` in a C target's cSettings) \
            turns on every `#if DEBUG` block of the C-family code in the shipping build.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                .target(name: "CCore", cSettings: [↓.define("DEBUG", to: "1")])
                """, path: "Package.swift"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                .target(name: "CCore", cSettings: [.define("DEBUG", to: "1", .when(configuration: .debug))])
                """, path: "Package.swift"),
        ]
    )

    public static let releaseUnoptimized = RuleDescription(
        id: "release-unoptimized",
        summary: "A release configuration turns optimisation off.",
        rationale: """
            SWIFT_OPTIMIZATION_LEVEL = -Onone or GCC_OPTIMIZATION_LEVEL = 0 in a Release \
            configuration ships a slow build that also keeps preview and test code the optimiser \
            would have removed.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                .executableTarget(name: "Tool", swiftSettings: [↓.unsafeFlags(["-Onone"])])
                """, path: "Package.swift"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                .executableTarget(name: "Tool", swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .debug))])
                """, path: "Package.swift"),
        ]
    )

    public static let releaseTestability = RuleDescription(
        id: "release-testability",
        summary: "A release configuration enables testability.",
        rationale: """
            ENABLE_TESTABILITY = YES (`-enable-testing`) exports internal symbols and disables \
            optimisations that depend on access control: a bigger, slower binary whose internals \
            are reachable.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                .target(name: "Core", swiftSettings: [↓.unsafeFlags(["-enable-testing"])])
                """, path: "Package.swift"),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                .target(name: "Core", swiftSettings: [.unsafeFlags(["-enable-testing"], .when(configuration: .debug))])
                """, path: "Package.swift"),
        ]
    )

    public static let all = [releaseDefinesDebug, releaseDebugPreprocessorMacro, releaseUnoptimized, releaseTestability]
}
