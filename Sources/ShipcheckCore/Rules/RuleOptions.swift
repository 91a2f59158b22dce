import ScanEngine

/// The options of one rule, read from the rule's own entry in `.shipcheck.yml` (as SwiftLint's
/// rule configurations are):
///
///     rules:
///       binary-mock-symbol:
///         severity: warning
///         patterns: ['Mocks?(?![a-z])', '^Dummy']
///
/// The loader knows only the entry's shape: `severity` and the keys the rule's `Options` list.
/// The values are the rule's to read, so a new option is a change to its rule's file alone.
package protocol RuleOptions: Sendable {
    /// The options when the configuration sets none.
    init()
    /// The keys the rule's entry may hold besides `severity`.
    static var keys: [String] { get }
    /// Where an option was set before rules owned their options (option → `section.key` at the
    /// top of the file). The old key keeps working, with a note saying where it moved.
    static var formerKeys: [String: String] { get }
    /// Reads `option` from `mapping` under `key`: the rule's entry, or for a former key the old
    /// section. A wrong value throws naming the file and line.
    mutating func read(_ option: String, from mapping: YAMLMapping, key: String) throws(InputError)
}

extension RuleOptions {
    package static var formerKeys: [String: String] { [:] }

    /// `options` (the defaults when nil) with `option` read from `mapping` under `key`.
    static func reading(_ option: String, from mapping: YAMLMapping, key: String, into options: (any RuleOptions)?)
        throws(InputError) -> any RuleOptions
    {
        var read = (options as? Self) ?? Self()
        try read.read(option, from: mapping, key: key)
        return read
    }
}

/// A rule with options of its own (`RuleOptions`), found in the configuration by its id.
package protocol ConfigurableRule: Rule {
    associatedtype Options: RuleOptions
}

extension ConfigurableRule {
    package static var optionsType: (any RuleOptions.Type)? { Options.self }
}

extension Configuration {
    /// The rule's options: those the configuration sets, else the defaults.
    package func options<R: ConfigurableRule>(for rule: R.Type) -> R.Options {
        (ruleOptions[rule.id] as? R.Options) ?? R.Options()
    }

    /// Sets the rule's options (as its `rules.<id>:` entry would).
    package mutating func setOptions<R: ConfigurableRule>(_ options: R.Options, for rule: R.Type) {
        ruleOptions[rule.id] = options
    }
}
