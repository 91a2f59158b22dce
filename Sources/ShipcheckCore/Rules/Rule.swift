/// One rule: a type in one file that owns its documentation (with the examples that are its
/// tests) and its check. Each capability refines this protocol with the input its rules read
/// (a parsed Swift file, a conflict scan, a project model, a decoded binary…); the one list of
/// every rule is `RuleRegistry` in ShipcheckFrontend.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// The type of the options the rule's `rules.<id>:` entry may set (`ConfigurableRule`).
    static var optionsType: (any RuleOptions.Type)? { get }
}

extension Rule {
    public static var id: String { description.id }
    public static var optionsType: (any RuleOptions.Type)? { nil }
}

extension Array where Element == any Rule.Type {
    public var descriptions: [RuleDescription] { map { $0.description } }
}
