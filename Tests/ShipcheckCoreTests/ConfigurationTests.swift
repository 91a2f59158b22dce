import ScanEngine
import ShipcheckTestSupport
import Testing

@testable import ShipcheckCore

/// Rules as the loader sees them: ids, and the options a configurable rule reads itself.
private enum PreviewRuleStub: Rule {
    static let description = RuleDescription(
        id: "preview-outside-debug", summary: "", rationale: "", defaultSeverity: .error)
}

private enum ConflictRuleStub: Rule {
    static let description = RuleDescription(id: "conflict-marker", summary: "", rationale: "", defaultSeverity: .error)
}

private enum PatternRuleStub: ConfigurableRule {
    static let description = RuleDescription(
        id: "binary-mock-symbol", summary: "", rationale: "", defaultSeverity: .warning)

    struct Options: RuleOptions {
        static let keys = ["patterns", "limit"]
        static let formerKeys = ["patterns": "binary.symbol-patterns"]
        var patterns = ["built-in"]
        var limit = 0

        mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError) {
            switch option {
            case "patterns": patterns = try mapping.stringList(key) ?? []
            default: limit = try mapping.int(key) ?? 0
            }
        }
    }
}

/// Capability settings as the loader sees them: keys at the top level, and a section of their own.
private struct TopLevelSettingsStub: CapabilitySettings {
    static let section: String? = nil
    static let keys = ["binaries", "queries"]
    var binaries: [String] = []
    var queries = "default.yml"

    mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        switch key {
        case "binaries": binaries = try mapping.stringList(key) ?? []
        default: queries = try mapping.string(key) ?? queries
        }
    }
}

private struct SectionSettingsStub: CapabilitySettings {
    static let section: String? = "conflicts"
    static let keys = ["allow", "limit"]
    var allow: [String] = []
    var limit = 7

    mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        switch key {
        case "allow": allow = try mapping.stringList(key) ?? []
        default: limit = try mapping.int(key) ?? limit
        }
    }
}

/// Settings whose section is also where a rule's option used to be (as `bundle:` holds
/// `distribution` and the former `resource-patterns`).
private struct SharedSectionSettingsStub: CapabilitySettings {
    static let section: String? = "binary"
    static let keys = ["depth"]
    var depth = 0

    mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError) {
        depth = try mapping.int(key) ?? depth
    }
}

@Suite struct ConfigurationLoaderTests {
    let rules: [any Rule.Type] = [PreviewRuleStub.self, ConflictRuleStub.self, PatternRuleStub.self]
    let settings: [any CapabilitySettings.Type] = [TopLevelSettingsStub.self, SectionSettingsStub.self]

    func parse(_ text: String) throws(InputError) -> Configuration {
        try ConfigurationLoader.parse(text, file: ".shipcheck.yml", rules: rules, settings: settings)
    }

    func error(_ text: String) -> InputError? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error }
    }

    @Test func readsEverySection() throws {
        let configuration = try parse(
            """
            include: ["App/**", "!App/Generated/**"]
            exclude: [Pods/**]
            rules:
              preview-outside-debug: warning
              conflict-marker: off
            flags:
              debug-only: [DEBUG_MENU]
              release-set: [APPSTORE]
            development-paths: ["App/PreviewSupport/**"]
            generated: ["App/API/**", "!App/API/Client.swift"]
            check-generated: preview-outside-debug
            binaries: [.build/release/App]
            queries: team/queries.yml
            conflicts:
              allow: [Docs/merging.md]
            binary:
              symbol-patterns: [Mock]
            release-configurations: [Release, Beta]
            max-file-size: 1000
            """)
        #expect(configuration.isScanned("App/View.swift"))
        #expect(!configuration.isScanned("App/Generated/X.swift"))
        #expect(!configuration.isScanned("Pods/X.swift"))
        #expect(!configuration.isScanned("Other/X.swift"))
        #expect(configuration.ruleSeverities["preview-outside-debug"] == .some(.warning))
        #expect(configuration.ruleSeverities["conflict-marker"] == .some(nil))
        #expect(configuration.debugOnlyFlags == ["DEBUG_MENU"])
        #expect(configuration.releaseSetFlags == ["APPSTORE"])
        #expect(configuration.developmentPaths.matches("App/PreviewSupport/Data.swift"))
        #expect(configuration.generated.lastMatch("App/API/Types.swift")?.pattern == "App/API/**")
        #expect(configuration.generated.lastMatch("App/API/Client.swift")?.isNegated == true)
        #expect(configuration.checkGenerated == ["preview-outside-debug"])
        #expect(configuration.settings(TopLevelSettingsStub.self).binaries == [".build/release/App"])
        #expect(configuration.settings(TopLevelSettingsStub.self).queries == "team/queries.yml")
        #expect(configuration.settings(SectionSettingsStub.self).allow == ["Docs/merging.md"])
        #expect(configuration.options(for: PatternRuleStub.self).patterns == ["Mock"])
        #expect(
            configuration.deprecations == [
                ".shipcheck.yml:17: note: 'binary.symbol-patterns' is deprecated; it is now 'rules.binary-mock-symbol.patterns'"
            ])
        #expect(configuration.releaseConfigurations == ["Release", "Beta"])
        #expect(configuration.maxFileSize == 1000)
    }

    /// A rule's entry holds its severity and its own options, which the rule reads; the loader
    /// checks only the entry's keys.
    @Test func aRulesEntryHoldsItsSeverityAndOptions() throws {
        let configuration = try parse(
            """
            rules:
              binary-mock-symbol:
                severity: note
                patterns: [Dummy, Fake]
                limit: 3
              preview-outside-debug:
                severity: off
            """)
        #expect(configuration.ruleSeverities["binary-mock-symbol"] == .some(.note))
        #expect(configuration.ruleSeverities["preview-outside-debug"] == .some(nil))
        #expect(configuration.options(for: PatternRuleStub.self).patterns == ["Dummy", "Fake"])
        #expect(configuration.options(for: PatternRuleStub.self).limit == 3)
        #expect(configuration.deprecations.isEmpty)
        // Options the entry leaves out keep their defaults, severity too.
        let partial = try parse("rules:\n  binary-mock-symbol:\n    limit: 1\n")
        #expect(partial.options(for: PatternRuleStub.self).patterns == ["built-in"])
        #expect(partial.ruleSeverities["binary-mock-symbol"] == nil)
        #expect(Configuration().options(for: PatternRuleStub.self).patterns == ["built-in"])
    }

    @Test func aRulesEntryRejectsWhatTheRuleDoesNotRead() {
        let unknown = error("rules:\n  binary-mock-symbol:\n    paterns: [Dummy]\n")
        #expect(unknown?.line == 3)
        #expect(unknown?.message.contains("rules.binary-mock-symbol") == true)
        #expect(unknown?.message.contains("paterns") == true)
        // A rule without options takes only a severity.
        #expect(error("rules:\n  conflict-marker:\n    patterns: [x]\n")?.line == 3)
        #expect(error("rules:\n  conflict-marker:\n    severity: loud\n")?.line == 3)
        // The rule reads its values: a wrong type is an error on that line.
        #expect(error("rules:\n  binary-mock-symbol:\n    limit: many\n")?.line == 3)
        // The same setting in its old and its new place.
        let twice = error("binary:\n  symbol-patterns: [A]\nrules:\n  binary-mock-symbol:\n    patterns: [B]\n")
        #expect(twice?.message.contains("same setting") == true)
        // A former key beside the rule's bare severity is no conflict.
        let beside = try? parse("binary:\n  symbol-patterns: [A]\nrules:\n  binary-mock-symbol: note\n")
        #expect(beside?.options(for: PatternRuleStub.self).patterns == ["A"])
        #expect(beside?.ruleSeverities["binary-mock-symbol"] == .some(.note))
        // A former section holds only former keys.
        #expect(error("binary:\n  patterns: [A]\n")?.line == 2)
    }

    /// A capability's settings type reads its own keys; the loader checks only where they are.
    @Test func settingsReadTheirOwnPlace() throws {
        let configuration = try parse("conflicts:\n  limit: 3\n")
        #expect(configuration.settings(SectionSettingsStub.self).limit == 3)
        // What the file leaves out keeps its default, as does a type the file does not mention.
        #expect(configuration.settings(SectionSettingsStub.self).allow.isEmpty)
        #expect(configuration.settings(TopLevelSettingsStub.self).queries == "default.yml")
        #expect(Configuration().settings(SectionSettingsStub.self).limit == 7)
        // An unknown key in the section, a wrong value, a section that is no mapping: the file and line.
        let unknown = error("conflicts:\n  allow: [a]\n  alow: [b]\n")
        #expect(unknown?.description.hasPrefix(".shipcheck.yml:3: error:") == true)
        #expect(unknown?.message.contains("unknown key 'conflicts.alow' (expected one of 'allow', 'limit')") == true)
        #expect(error("conflicts:\n  limit: many\n")?.message == "'conflicts.limit' must be a whole number")
        #expect(error("conflicts:\n  limit: many\n")?.line == 2)
        #expect(error("\nconflicts: [a]\n")?.line == 2)
        #expect(error("binaries:\n  a: b\n")?.message == "'binaries' must be a list of strings")
        // Keys of a settings type the loader is not given are unknown.
        let unregistered = try? ConfigurationLoader.parse(
            "queries: q.yml\n", file: ".shipcheck.yml", rules: rules, settings: [SectionSettingsStub.self])
        #expect(unregistered == nil)
    }

    /// A section both holds settings and a rule option's former key: each reads its own.
    @Test func aSettingsSectionHoldsFormerKeysToo() throws {
        func parse(_ text: String) throws(InputError) -> Configuration {
            try ConfigurationLoader.parse(
                text, file: ".shipcheck.yml", rules: rules, settings: [SharedSectionSettingsStub.self])
        }
        let configuration = try parse("binary:\n  depth: 2\n  symbol-patterns: [A]\n")
        #expect(configuration.settings(SharedSectionSettingsStub.self).depth == 2)
        #expect(configuration.options(for: PatternRuleStub.self).patterns == ["A"])
        #expect(configuration.deprecations.count == 1)
        do {
            _ = try parse("binary:\n  depth: 2\n  patterns: [A]\n")
            Issue.record("an unknown key in a shared section loaded")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("(expected one of 'depth', 'symbol-patterns')"))
        }
    }

    @Test func disabledRuleHasNoSeverity() throws {
        let configuration = try parse("rules:\n  conflict-marker: off\n")
        let rule = RuleDescription(id: "conflict-marker", summary: "", rationale: "", defaultSeverity: .error)
        #expect(configuration.severity(for: rule) == nil)
        #expect(Configuration().severity(for: rule) == .error)
    }

    @Test func unknownKeyNamesItsLine() {
        let failure = error("exclude: [a]\n\nexlude: [b]\n")
        #expect(failure?.line == 3)
        #expect(failure?.message.contains("unknown key 'exlude'") == true)
        #expect(failure?.description.hasPrefix(".shipcheck.yml:3: error:") == true)
    }

    @Test func unknownNestedKeyIsQualified() {
        let failure = error("flags:\n  debug-only: [A]\n  relase-set: [B]\n")
        #expect(failure?.line == 3)
        #expect(failure?.message.contains("'flags.relase-set'") == true)
    }

    @Test func wrongTypesNameKeyAndLine() {
        #expect(error("flags: [DEBUG]\n")?.message.contains("'flags' must be a mapping") == true)
        #expect(error("exclude:\n  a: b\n")?.line == 2)
        #expect(error("max-file-size: huge\n")?.message.contains("whole number") == true)
        #expect(error("queries: [a, b]\n")?.message.contains("'queries' must be a string") == true)
        #expect(error("rules:\n  conflict-marker: loud\n")?.line == 2)
    }

    @Test func unknownRuleIsRejected() {
        let failure = error("rules:\n  preview-outside-debugg: off\n")
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("unknown rule 'preview-outside-debugg'") == true)
    }

    @Test func checkGeneratedNamesKnownRules() {
        let failure = error("generated: [API/**]\ncheck-generated: [unchecked-sendable-closur]\n")
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("unknown rule 'unchecked-sendable-closur' in 'check-generated'") == true)
    }

    @Test func brokenYAMLReportsItsLine() {
        let failure = error("exclude: [a\ninclude: b\n")
        #expect(failure != nil)
        #expect(failure?.line != nil)
        #expect(failure?.message.hasPrefix("invalid YAML") == true)
    }

    @Test func flagCannotBeBothDebugOnlyAndReleaseSet() {
        #expect(error("flags:\n  debug-only: [X]\n  release-set: [X]\n")?.message.contains("'X'") == true)
    }

    @Test func emptyFileIsTheDefaults() throws {
        #expect(try parse("").isScanned("anything"))
        #expect(try parse("# only a comment\n").settings(TopLevelSettingsStub.self).queries == "default.yml")
    }

    @Test func loadsFromRootOrExplicitPath() throws {
        let directory = TemporaryDirectory()
        directory.write(".shipcheck.yml", "exclude: [Vendor/**]\n")
        let found = try ConfigurationLoader.load(
            explicitPath: nil, root: directory.path, rules: rules, settings: settings)
        #expect(!found.isScanned("Vendor/a.swift"))
        directory.write("other.yml", "exclude: [Other/**]\n")
        let explicit = try ConfigurationLoader.load(
            explicitPath: directory.path + "/other.yml", root: directory.path, rules: rules, settings: settings)
        #expect(explicit.isScanned("Vendor/a.swift"))
        #expect(throws: InputError.self) {
            try ConfigurationLoader.load(
                explicitPath: directory.path + "/missing.yml", root: directory.path, rules: rules, settings: settings)
        }
        let none = TemporaryDirectory()
        #expect(
            try ConfigurationLoader.load(explicitPath: nil, root: none.path, rules: rules, settings: settings)
                .sourcePath == nil)
    }
}
