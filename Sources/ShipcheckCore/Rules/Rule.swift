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
    /// What the rule reads: each capability protocol says it for its rules (a rule of several
    /// says all of them), so a check picks its rules out of every rule (`reading(_:as:)`) without
    /// a dynamic cast of each one to its protocol: a cast that fails scans every conformance
    /// record of the process, and each check's casts of the whole registry were a tenth of a
    /// warm run.
    static var inputs: Set<RuleInput> { get }
}

/// The input a kind of rule reads, named by the capability protocol that declares it.
package struct RuleInput: Hashable, Sendable {
    package let name: String

    package init(_ name: String) { self.name = name }
}

extension Rule {
    package static var id: String { description.id }
    package static var optionsType: (any RuleOptions.Type)? { nil }
    package static var suppression: SuppressionPolicy { SuppressionPolicy() }
    /// None: a rule its check knows by type.
    package static var inputs: Set<RuleInput> { [] }
}

extension Array where Element == any Rule.Type {
    package var descriptions: [RuleDescription] { map { $0.description } }

    /// The rules that read `input`, as `kind` (its capability protocol's metatype).
    package func reading<Kind>(_ input: RuleInput, as kind: Kind.Type) -> [Kind] {
        filter { $0.inputs.contains(input) }.compactMap { $0 as? Kind }
    }
}
