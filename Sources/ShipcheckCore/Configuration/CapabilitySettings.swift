import ScanEngine

/// The settings of one capability, read from its own place in `.shipcheck.yml` (as a rule's
/// options are read from its entry, `RuleOptions`): a section of its own,
///
///     conflicts:
///       allow: [Docs/merging.md]
///
/// or keys at the top level (`queries: team/queries.yml`). The loader knows only where the
/// settings are and which keys they hold; the values are the capability's to read, so a new
/// setting is a change to its capability's settings type alone (and one line in the frontend's
/// `SettingsRegistry` for a new type).
package protocol CapabilitySettings: Sendable {
    /// The settings when the configuration sets none.
    init()
    /// The top-level key whose mapping holds `keys`, or nil when `keys` are top-level keys.
    static var section: String? { get }
    /// The keys the settings read (in `section`, or at the top level).
    static var keys: [String] { get }
    /// Reads `key` from `mapping` (the section, or the top level). A wrong value throws naming
    /// the file and line.
    mutating func read(_ key: String, from mapping: YAMLMapping) throws(InputError)
}

extension CapabilitySettings {
    /// The top-level keys the settings take: their section, else their keys.
    static var topLevelKeys: [String] { section.map { [$0] } ?? keys }

    /// The settings `top` (the file's top level) sets, the defaults for the rest. The section
    /// may hold `keysReadElsewhere` too (rules' former keys); any other key in it is an error.
    static func read(from top: YAMLMapping, keysReadElsewhere: [String]) throws(InputError) -> Self {
        var settings = Self()
        var mapping = top
        if let section {
            guard let inner = try top.mapping(section) else { return settings }
            try inner.requireKeys(in: keys + keysReadElsewhere)
            mapping = inner
        }
        for key in keys where mapping.node(key) != nil {
            try settings.read(key, from: mapping)
        }
        return settings
    }
}

extension Configuration {
    /// The capability's settings: those the configuration sets, else the defaults.
    package func settings<S: CapabilitySettings>(_ type: S.Type) -> S {
        (capabilitySettings[ObjectIdentifier(type)] as? S) ?? S()
    }

    /// Sets the capability's settings (as its place in the file would).
    package mutating func setSettings<S: CapabilitySettings>(_ settings: S) {
        capabilitySettings[ObjectIdentifier(S.self)] = settings
    }
}
