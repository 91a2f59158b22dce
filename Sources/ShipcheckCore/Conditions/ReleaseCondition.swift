/// A compilation condition as a release build sees it: `DEBUG` and debug-only flags are
/// false, release-set flags true, and everything else (`os()`, `canImport()`, unknown flags…)
/// an `atom` that may take either value.
package indirect enum ReleaseCondition: Hashable, Sendable {
    case constant(Bool)
    /// An unknown condition, named by its normalised source text (`os(iOS)`).
    case atom(String)
    case not(ReleaseCondition)
    case and(ReleaseCondition, ReleaseCondition)
    case or(ReleaseCondition, ReleaseCondition)

    /// Every distinct atom, in first-appearance order.
    package var atoms: [String] {
        var seen: [String] = []
        func collect(_ condition: ReleaseCondition) {
            switch condition {
            case .constant: break
            case .atom(let name): if !seen.contains(name) { seen.append(name) }
            case .not(let inner): collect(inner)
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                collect(lhs)
                collect(rhs)
            }
        }
        collect(self)
        return seen
    }

    /// Two-valued evaluation under a full assignment of the atoms.
    package func evaluate(_ assignment: [String: Bool]) -> Bool {
        switch self {
        case .constant(let value): value
        case .atom(let name): assignment[name] ?? false
        case .not(let inner): !inner.evaluate(assignment)
        case .and(let lhs, let rhs): lhs.evaluate(assignment) && rhs.evaluate(assignment)
        case .or(let lhs, let rhs): lhs.evaluate(assignment) || rhs.evaluate(assignment)
        }
    }

    /// Kleene three-valued evaluation with every atom unknown (nil): sound when atoms repeat,
    /// only less precise. `false` means no assignment can make the condition hold.
    package var kleene: Bool? {
        switch self {
        case .constant(let value): return value
        case .atom: return nil
        case .not(let inner): return inner.kleene.map { !$0 }
        case .and(let lhs, let rhs):
            let left = lhs.kleene, right = rhs.kleene
            if left == false || right == false { return false }
            if left == true && right == true { return true }
            return nil
        case .or(let lhs, let rhs):
            let left = lhs.kleene, right = rhs.kleene
            if left == true || right == true { return true }
            if left == false && right == false { return false }
            return nil
        }
    }

    package static func all(_ conditions: [ReleaseCondition]) -> ReleaseCondition {
        guard var result = conditions.first else { return .constant(true) }
        for condition in conditions.dropFirst() { result = .and(result, condition) }
        return result
    }
}
