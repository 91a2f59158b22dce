/// One rule: a type in one file that owns its documentation (with the examples that are its
/// tests) and its check. Each capability refines this protocol with the input its rules read
/// (a parsed Swift file, a conflict scan, a project model, a decoded binary…); the one list of
/// every rule is `RuleRegistry` in ShipcheckFrontend.
package protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// The type of the options the rule's `rules.<id>:` entry may set (`ConfigurableRule`).
    static var optionsType: (any RuleOptions.Type)? { get }
    /// How `shipcheck:ignore` directives silence the rule's findings (the grammar alone unless
    /// the rule says more).
    static var suppression: SuppressionPolicy { get }
}

extension Rule {
    package static var id: String { description.id }
    package static var optionsType: (any RuleOptions.Type)? { nil }
    package static var suppression: SuppressionPolicy { SuppressionPolicy() }
}

extension Array where Element == any Rule.Type {
    package var descriptions: [RuleDescription] { map { $0.description } }
}
