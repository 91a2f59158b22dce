import ShipcheckTestSupport
import Testing

@testable import ShipcheckCore

/// The truth table decides every assignment at once; it must agree with evaluating the
/// condition under each one, and pick the same assignment the evaluator's reports describe
/// (fewest true atoms, the smallest mask on a tie).
@Suite struct ConditionTruthTableTests {
    private func condition(depth: Int, atoms: [String], _ random: inout SeededGenerator) -> ReleaseCondition {
        let choice = depth == 0 ? Int.random(in: 0..<2, using: &random) : Int.random(in: 0..<5, using: &random)
        switch choice {
        case 0 where !atoms.isEmpty: return .atom(atoms.randomElement(using: &random)!)
        case 0, 1: return .constant(Bool.random(using: &random))
        case 2: return .not(condition(depth: depth - 1, atoms: atoms, &random))
        case 3:
            return .and(
                condition(depth: depth - 1, atoms: atoms, &random), condition(depth: depth - 1, atoms: atoms, &random))
        default:
            return .or(
                condition(depth: depth - 1, atoms: atoms, &random), condition(depth: depth - 1, atoms: atoms, &random))
        }
    }

    /// Every assignment in turn, as the evaluator once enumerated them.
    private func enumerated(_ condition: ReleaseCondition, atoms: [String]) -> Int? {
        var best: Int?
        for mask in 0..<(1 << atoms.count) where best.map({ mask.nonzeroBitCount < $0.nonzeroBitCount }) ?? true {
            let assignment = Dictionary(uniqueKeysWithValues: atoms.enumerated().map { ($1, mask & (1 << $0) != 0) })
            if condition.evaluate(assignment) { best = mask }
        }
        return best
    }

    @Test func agreesWithEvaluatingEveryAssignment() {
        var random = SeededGenerator(seed: 42)
        var satisfiable = 0, unsatisfiable = 0
        for round in 0..<400 {
            let names = (0..<(round % 11)).map { "os(\($0))" }
            let built = condition(depth: 6, atoms: names, &random)
            let atoms = built.atoms
            let expected = enumerated(built, atoms: atoms)
            #expect(ConditionTruthTable(built, atoms: atoms).satisfyingMaskWithFewestTrueAtoms == expected, "\(built)")
            if expected == nil { unsatisfiable += 1 } else { satisfiable += 1 }
        }
        // The generator makes both kinds, with up to ten atoms (tables of one to 16 words).
        #expect(satisfiable > 50 && unsatisfiable > 20)
    }

    @Test func anUnsatisfiableConditionOfSixteenAtomsHasNoAssignment() {
        let atoms = (0..<16).map { "canImport(M\($0))" }
        let any = atoms.dropFirst().reduce(ReleaseCondition.atom(atoms[0])) { .or($0, .atom($1)) }
        let none = atoms.dropFirst().reduce(ReleaseCondition.not(.atom(atoms[0]))) { .and($0, .not(.atom($1))) }
        #expect(ConditionTruthTable(.and(any, none), atoms: atoms).satisfyingMaskWithFewestTrueAtoms == nil)
        #expect(ConditionTruthTable(any, atoms: atoms).satisfyingMaskWithFewestTrueAtoms == 1)
        #expect(
            ConditionTruthTable(.and(any, .atom(atoms[15])), atoms: atoms).satisfyingMaskWithFewestTrueAtoms == 1 << 15)
    }
}
