/// Every assignment of a condition's atoms decided at once. Bit `m` of the table (word `m / 64`,
/// bit `m % 64`) says whether the condition holds when exactly the atoms whose indices are the
/// set bits of `m` are true. Each subcondition's table is built from its operands' with one
/// word operation per 64 assignments, so deciding all `2^n` assignments costs the condition's
/// size times `2^n / 64` words — not `2^n` walks of the condition, which a file with many
/// clauses and unknowns turned into seconds per node.
struct ConditionTruthTable {
    private let words: [UInt64]

    /// `atoms`: the condition's distinct atoms (`ReleaseCondition.atoms`), at most
    /// `ReleaseBuildFlags.maximumEnumeratedAtoms` of them.
    init(_ condition: ReleaseCondition, atoms: [String]) {
        let index = Dictionary(atoms.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let wordCount = max(1, (1 << atoms.count) / 64)
        var words = Self.table(of: condition, index: index, wordCount: wordCount)
        // With fewer than six atoms one word holds every assignment; its other bits are none.
        if atoms.count < 6 { words[0] &= (1 << (1 << atoms.count)) - 1 }
        self.words = words
    }

    /// The assignment (as the mask of its true atoms) with the fewest true atoms that satisfies
    /// the condition, the smallest such mask on a tie; nil when none does.
    var satisfyingMaskWithFewestTrueAtoms: Int? {
        var best: Int?
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                let mask = wordIndex * 64 + rest.trailingZeroBitCount
                if best.map({ mask.nonzeroBitCount < $0.nonzeroBitCount }) ?? true { best = mask }
                rest &= rest - 1
            }
        }
        return best
    }

    private static func table(of condition: ReleaseCondition, index: [String: Int], wordCount: Int) -> [UInt64] {
        switch condition {
        case .constant(let value):
            return Array(repeating: value ? ~0 : 0, count: wordCount)
        case .atom(let name):
            return pattern(ofAtom: index[name] ?? 0, wordCount: wordCount)
        case .not(let inner):
            return table(of: inner, index: index, wordCount: wordCount).map { ~$0 }
        case .and(let lhs, let rhs):
            let left = table(of: lhs, index: index, wordCount: wordCount)
            let right = table(of: rhs, index: index, wordCount: wordCount)
            return zip(left, right).map { $0 & $1 }
        case .or(let lhs, let rhs):
            let left = table(of: lhs, index: index, wordCount: wordCount)
            let right = table(of: rhs, index: index, wordCount: wordCount)
            return zip(left, right).map { $0 | $1 }
        }
    }

    /// Where atom `atom` is true: below six, alternating runs inside every word; from six on,
    /// whole words.
    private static func pattern(ofAtom atom: Int, wordCount: Int) -> [UInt64] {
        guard atom >= 6 else {
            var word: UInt64 = 0
            for bit in 0..<64 where bit & (1 << atom) != 0 { word |= 1 << UInt64(bit) }
            return Array(repeating: word, count: wordCount)
        }
        return (0..<wordCount).map { ($0 >> (atom - 6)) & 1 == 1 ? ~0 : 0 }
    }
}
