/// One rule: a type in one file that owns its documentation (with the examples that are its
/// tests) and its check. Each capability refines this protocol with the input its rules read
/// (a parsed Swift file, a conflict scan, a project model, a decoded binary…); the one list of
/// every rule is `RuleRegistry` in ShipcheckFrontend.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
}

extension Rule {
    public static var id: String { description.id }
}

extension Array where Element == any Rule.Type {
    public var descriptions: [RuleDescription] { map { $0.description } }
}
