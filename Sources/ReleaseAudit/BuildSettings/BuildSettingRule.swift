import ShipcheckCore

/// A rule about build settings that make a release build behave like a debug build. Each one
/// is checked in every place a setting can be written: Xcode projects, `.xcconfig` files and
/// XcodeGen specs (through `settingChecks`, on the stacked settings of each release
/// configuration) and `Package.swift` manifests (through `manifestProblem`, on each setting
/// call that applies to release builds). The engines are `XcodeBuildSettingsAudit` and
/// `PackageManifestAudit`; the check of a scan is `BuildSettingsCheck`.
package protocol BuildSettingRule: Rule {
    /// The Xcode settings the rule reads and what is wrong in their values.
    static var settingChecks: [BuildSettingCheck] { get }

    /// What is wrong with one setting call of a manifest (a message per problem).
    static func manifestProblems(_ setting: ManifestSetting) -> [String]
}

/// One Xcode setting a rule checks.
package struct BuildSettingCheck: Sendable {
    package var key: String
    /// The offending words of one assignment's own value (empty: fine), given the
    /// compilation conditions that are debug-only.
    package var offending: @Sendable (_ words: [String], _ debugFlags: Set<String>) -> [String]
    /// The finding's message for one offending word.
    package var message: @Sendable (_ found: String) -> String
    package var fix: String

    package init(
        key: String, offending: @escaping @Sendable (_ words: [String], _ debugFlags: Set<String>) -> [String],
        message: @escaping @Sendable (_ found: String) -> String, fix: String
    ) {
        self.key = key
        self.offending = offending
        self.message = message
        self.fix = fix
    }
}

/// A `.define(…)` or `.unsafeFlags(…)` call of a manifest that applies to release builds
/// (no `.when(configuration: .debug)`).
package struct ManifestSetting: Sendable {
    package enum Call: Sendable, Hashable {
        /// `.define("NAME")` or `.define("NAME", to: …)`.
        case define(String)
        /// `.unsafeFlags([…])`, the flags that are string literals.
        case unsafeFlags([String])
    }

    package var call: Call
    /// The settings list holding it: `swiftSettings`, `cSettings`, `cxxSettings`, `linkerSettings`.
    package var kind: String
    /// For messages: `target 'App'`, or `the package`.
    package var target: String
    /// Compilation conditions never set in release: `DEBUG` and the configuration's debug-only flags.
    package var debugOnlyFlags: Set<String>

    /// Whether the settings are C-family ones (`cSettings`, `cxxSettings`).
    package var isCFamily: Bool { kind == "cSettings" || kind == "cxxSettings" }

    /// The flags of an `unsafeFlags` call that define a debug-only condition (`-DDEBUG`,
    /// `-D DEBUG`, `-DDEBUG=1`), as written.
    package var debugDefines: [String] {
        guard case .unsafeFlags(let flags) = call else { return [] }
        return flags.enumerated().compactMap { index, flag in
            let defined: String? =
                flag.hasPrefix("-D") && flag.count > 2
                ? String(flag.dropFirst(2))
                : (flag == "-D" && index + 1 < flags.count ? flags[index + 1] : nil)
            guard let defined, debugOnlyFlags.contains(defined.split(separator: "=").first.map(String.init) ?? defined)
            else { return nil }
            return flag == "-D" ? "-D \(defined)" : flag
        }
    }

    /// The flags of an `unsafeFlags` call.
    package var flags: [String] {
        if case .unsafeFlags(let flags) = call { return flags }
        return []
    }
}

extension RuleInput {
    package static let buildSetting = RuleInput("build settings")
}

extension BuildSettingRule {
    package static var inputs: Set<RuleInput> { [.buildSetting] }
}
