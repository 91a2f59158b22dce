import CByteSearch

/// Finds text every match of a regular expression must contain, so a search can look for
/// it with memmem over the whole buffer and run the regex only on lines that have it.
///
/// Conservative by design: anything it does not fully understand (inline flags, numeric or
/// property escapes, quoting, a branch with no literal) yields nil, which means "no
/// prefilter" — slower, never wrong. Groups and classes are skipped as a whole.
enum RequiredLiteral {
    /// Texts one of which every match contains — one per top-level alternative (`a|b`) —
    /// or nil. With `caseInsensitive`, runs are cut at letters with non-ASCII case variants
    /// (k: U+212A, s: U+017F) and at non-ASCII characters, so ASCII folding stays exact.
    static func extract(from pattern: String, caseInsensitive: Bool) -> [String]? {
        var alternatives: [String] = []
        for branch in topLevelBranches(Array(pattern.unicodeScalars)) {
            guard let literal = longestRun(in: branch, caseInsensitive: caseInsensitive) else { return nil }
            alternatives.append(literal)
        }
        return alternatives.isEmpty ? nil : alternatives
    }

    /// The pattern split at `|` outside groups and classes.
    private static func topLevelBranches(_ scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var branches: [[Unicode.Scalar]] = []
        var start = 0, index = 0, depth = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case "[": index = (skipClass(scalars, from: index) ?? scalars.count) - 1
            case "(": depth += 1
            case ")": depth -= 1
            case "|" where depth == 0:
                branches.append(Array(scalars[start..<index]))
                start = index + 1
            default: break
            }
            index += 1
        }
        branches.append(Array(scalars[min(start, scalars.count)...]))
        return branches
    }

    /// The most selective run of literal characters one branch (without top-level `|`) requires.
    private static func longestRun(in scalars: [Unicode.Scalar], caseInsensitive: Bool) -> String? {
        var runs: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { runs.append(current) }
            current = ""
        }
        func append(_ scalar: Unicode.Scalar) {
            if caseInsensitive && (!scalar.isASCII || "kKsS".unicodeScalars.contains(scalar)) {
                flush()
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            var literal: Unicode.Scalar
            switch scalar {
            case "|", "*", "+", "?", "{":
                return nil
            case "(":
                if index + 2 < scalars.count, scalars[index + 1] == "?",
                    !":=!<>".unicodeScalars.contains(scalars[index + 2])
                {
                    return nil  // inline flags such as (?i) change how the rest matches
                }
                flush()
                guard let end = skipGroup(scalars, from: index) else { return nil }
                index = skipQuantifier(scalars, from: end)
                continue
            case "[":
                flush()
                guard let end = skipClass(scalars, from: index) else { return nil }
                index = skipQuantifier(scalars, from: end)
                continue
            case ".", "^", "$":
                flush()
                index = skipQuantifier(scalars, from: index + 1)
                continue
            case "\\":
                guard index + 1 < scalars.count else { return nil }
                let escaped = scalars[index + 1]
                if escaped.properties.isAlphabetic || ("0"..."9").contains(escaped) {
                    guard "dDwWsSbBAzZGhHvVRX".unicodeScalars.contains(escaped) else { return nil }
                    flush()
                    index = skipQuantifier(scalars, from: index + 2)
                    continue
                }
                literal = escaped
                index += 2
            default:
                literal = scalar
                index += 1
            }
            guard index < scalars.count else {
                append(literal)
                break
            }
            switch scalars[index] {
            case "?", "*":
                // May repeat zero times: not required.
                flush()
                index = skipQuantifier(scalars, from: index)
            case "+":
                append(literal)
                flush()
                index = skipQuantifier(scalars, from: index)
            case "{":
                // `{n}` repeats exactly n times and the run goes on; `{n,m}` requires n copies.
                let (minimum, exact) = repetition(scalars, at: index)
                for _ in 0..<min(minimum, 64) { append(literal) }
                if !exact || minimum > 64 { flush() }
                index = skipQuantifier(scalars, from: index)
            default:
                append(literal)
            }
        }
        flush()
        return mostSelective(runs)
    }

    /// The run a search meets least often where the regex does not match: of those of three
    /// bytes or more (else two, else any), the one whose two rarest bytes are rarest in source
    /// code (memmem looks for those two first), the longer of two alike. `func test[A-Z]\w*Async\(`
    /// is searched for by `Async(`, not by `func test`, which every test function has.
    private static func mostSelective(_ runs: [String]) -> String? {
        let shortest = [3, 2, 0].first { minimum in runs.contains { $0.utf8.count >= minimum } } ?? 0
        func rarity(_ run: String) -> [Int] { Array(run.utf8.map { Int(shipcheck_byte_rank($0)) }.sorted().prefix(2)) }
        return runs.filter { $0.utf8.count >= shortest }.min { first, second in
            let (a, b) = (rarity(first), rarity(second))
            return a == b ? first.utf8.count > second.utf8.count : a.lexicographicallyPrecedes(b)
        }
    }

    /// The minimum of a `{n}`, `{n,}` or `{n,m}` quantifier at `start`, and whether it is exact.
    private static func repetition(_ scalars: [Unicode.Scalar], at start: Int) -> (minimum: Int, exact: Bool) {
        var index = start + 1
        var digits = ""
        while index < scalars.count, ("0"..."9").contains(scalars[index]) {
            digits.unicodeScalars.append(scalars[index])
            index += 1
        }
        let exact =
            index < scalars.count && scalars[index] == "}"
            && !(index + 1 < scalars.count && (scalars[index + 1] == "?" || scalars[index + 1] == "+"))
        return (Int(digits) ?? 0, exact)
    }

    /// Index after the `)` closing the group opened at `start`.
    private static func skipGroup(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\":
                index += 2
                continue
            case "[":
                guard let end = skipClass(scalars, from: index) else { return nil }
                index = end
                continue
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Index after the `]` closing the class opened at `start` (classes nest: `[[a-z]&&[^q]]`).
    private static func skipClass(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            if scalar == "[" {
                depth += 1
                // A `]` right after `[` or `[^` is a member, not the end.
                if index + 1 < scalars.count, scalars[index + 1] == "^" { index += 1 }
                if index + 1 < scalars.count, scalars[index + 1] == "]" { index += 1 }
            } else if scalar == "]" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    /// Index after a quantifier (`?`, `*`, `+`, `{m,n}`) and its lazy / possessive suffix.
    private static func skipQuantifier(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        guard index < scalars.count else { return index }
        switch scalars[index] {
        case "?", "*", "+": index += 1
        case "{":
            while index < scalars.count, scalars[index] != "}" { index += 1 }
            index += 1
        default: return index
        }
        if index < scalars.count, scalars[index] == "?" || scalars[index] == "+" { index += 1 }
        return index
    }
}
