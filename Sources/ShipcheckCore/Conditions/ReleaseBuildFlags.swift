/// The compilation conditions of a release build as `.shipcheck.yml` describes them
/// (`flags.debug-only`, `flags.release-set`), and the one judge of what such a build compiles:
/// every check that asks whether a release build compiles some code (the source rules on
/// swift-syntax trees, the privacy rules' source lexer on directive lines) turns the enclosing
/// `#if` clauses into a `ReleaseCondition` through `flag(_:)` / `defined(_:)` (or
/// `condition(ofDirective:dialect:)`) and asks `verdict(_:)`, so they cannot disagree.
///
/// Three-valued: `DEBUG` and the debug-only flags are never set, the release-set flags always
/// are, and everything else (`os()`, `canImport()`, `targetEnvironment()`, flags nobody
/// configured) may take either value. Code is excluded only when no value of those unknowns
/// lets a release build compile it.
package struct ReleaseBuildFlags: Sendable, Hashable {
    /// Past this many distinct unknowns in one requirement, a Kleene evaluation decides instead
    /// of enumerating assignments: it can only call excluded code compiled (a false alarm),
    /// never the reverse.
    package static let maximumEnumeratedAtoms = 16

    /// Never set in a release build; always holds `DEBUG`.
    package let debugOnly: Set<String>
    /// Always set in a release build.
    package let releaseSet: Set<String>

    package init(debugOnly: Set<String> = [], releaseSet: Set<String> = []) {
        self.debugOnly = debugOnly.union(["DEBUG"])
        self.releaseSet = releaseSet
    }

    package init(_ configuration: Configuration) {
        self.init(debugOnly: configuration.debugOnlyFlags, releaseSet: configuration.releaseSetFlags)
    }

    /// A flag as a condition: Swift's `#if NAME`, and C's `#if NAME` (an undefined macro is 0,
    /// and a configured release flag is taken to be defined to a true value, as Xcode's
    /// `NAME=1` is).
    package func flag(_ name: String) -> ReleaseCondition {
        if debugOnly.contains(name) { return .constant(false) }
        if releaseSet.contains(name) { return .constant(true) }
        return .atom(name)
    }

    /// C's `defined(NAME)` (`#ifdef NAME`): an unconfigured macro is an unknown of its own,
    /// apart from its value (`#define NAME 0` is defined and false).
    package func defined(_ name: String) -> ReleaseCondition {
        if debugOnly.contains(name) { return .constant(false) }
        if releaseSet.contains(name) { return .constant(true) }
        return .atom("defined(\(name))")
    }

    /// What a release build does with code that is compiled exactly when `requirement` holds
    /// (the conjunction of its enclosing clauses' requirements).
    package func verdict(_ requirement: ReleaseCondition) -> ReleaseVerdict {
        let atoms = requirement.atoms
        guard atoms.count <= Self.maximumEnumeratedAtoms else {
            return requirement.kleene == false ? .excluded : .compiled(when: [])
        }
        guard let mask = ConditionTruthTable(requirement, atoms: atoms).satisfyingMaskWithFewestTrueAtoms else {
            return .excluded
        }
        let assignment = Dictionary(
            atoms.enumerated().map { ($1, mask & (1 << $0) != 0) }, uniquingKeysWith: { first, _ in first })
        return .compiled(when: Self.relevantLiterals(requirement, atoms: atoms, assignment: assignment))
    }

    /// The literals of `assignment` that matter: an atom whose flip keeps the condition true is dropped.
    private static func relevantLiterals(_ condition: ReleaseCondition, atoms: [String], assignment: [String: Bool])
        -> [String]
    {
        var literals: [String] = []
        for atom in atoms {
            let value = assignment[atom] ?? false
            var flipped = assignment
            flipped[atom] = !value
            if condition.evaluate(flipped) { continue }
            literals.append(value ? atom : "!\(atom)")
        }
        return literals
    }
}

/// What a release build does with some code.
package enum ReleaseVerdict: Sendable, Hashable {
    /// Never compiled in release: DEBUG-only.
    case excluded
    /// Compiled in release when the listed unknowns have these values: empty when always,
    /// else (the third value) when a platform, SDK or unconfigured flag decides; the assignment
    /// with the fewest true unknowns.
    case compiled(when: [String])
}
