import ShipcheckCore
import SwiftOperators
import SwiftSyntax

/// Whether a node can be compiled in a release build (`DEBUG` not set), whatever the
/// platform, SDK, compiler and unknown custom flags are.
///
/// The node's enclosing `#if` / `#elseif` / `#else` clauses, at any depth and in any position
/// (statements, declarations, members, switch cases, postfix expressions, attributes), give a
/// conjunction: each clause's own condition, and the negation of every earlier clause's
/// condition in its `#if`. The shared `ReleaseBuildFlags` judges it (the privacy rules' lexer
/// asks the same judge about the same clauses): the node is DEBUG-only exactly when no
/// assignment of the unknown conditions satisfies that conjunction, the same unknown (say
/// `os(iOS)`) in several clauses taking one value.
///
/// (SwiftIfConfig's `configuredRegions` treats an unknown condition as false, which would make
/// `#if !os(iOS)` look active and `#if DEBUG || targetEnvironment(simulator)` look excluded.)
package struct ReleaseConditionEvaluator: Sendable {
    package let flags: ReleaseBuildFlags

    package var debugOnlyFlags: Set<String> { flags.debugOnly }
    package var releaseSetFlags: Set<String> { flags.releaseSet }

    package init(debugOnlyFlags: Set<String> = [], releaseSetFlags: Set<String> = []) {
        flags = ReleaseBuildFlags(debugOnly: debugOnlyFlags, releaseSet: releaseSetFlags)
    }

    /// What a release build does with a node.
    package enum Verdict: Sendable, Hashable {
        /// Never compiled in release: DEBUG-only.
        case excluded
        /// Compiled in release when the listed unknowns have these values (empty: always).
        /// `enclosing` quotes the enclosing clauses, outermost first.
        case compiled(when: [String], enclosing: [String])
    }

    /// What a release build does with `node`; `memo` is its tree's (`ParsedSwiftFile.clauseMemo`).
    /// The verdict depends only on the enclosing clauses, so it is worked out once per innermost
    /// clause, however many nodes inside it are asked about.
    package func verdict(for node: some SyntaxProtocol, memo: ClauseMemo) -> Verdict {
        let chain = enclosingClauses(of: Syntax(node), memo: memo)
        guard let innermost = chain.last?.id else { return verdict(under: chain) }
        if let known = memo.verdicts[innermost] { return known }
        let verdict = verdict(under: chain)
        memo.verdicts[innermost] = verdict
        return verdict
    }

    /// The verdict for a node inside `chain` (outermost first).
    private func verdict(under chain: [Clause]) -> Verdict {
        switch flags.verdict(ReleaseCondition.all(chain.map(\.requirement))) {
        case .excluded: .excluded
        case .compiled(let when): .compiled(when: when, enclosing: chain.map(\.quoted))
        }
    }

    /// One enclosing clause: the condition under which it is taken, and how to quote it.
    struct Clause {
        var id: SyntaxIdentifier
        var requirement: ReleaseCondition
        var quoted: String
    }

    /// The clauses around `node`, outermost first.
    func enclosingClauses(of node: Syntax, memo: ClauseMemo) -> [Clause] {
        memo.use(for: flags)
        var clauses: [Clause] = []
        var current = node
        while let parent = current.parent {
            if let clause = parent.as(IfConfigClauseSyntax.self), current.id != clause.condition?.id,
                let list = clause.parent?.as(IfConfigClauseListSyntax.self)
            {
                if let known = memo.clauses[clause.id] {
                    clauses.append(known)
                } else {
                    let described = describe(clause, in: list)
                    memo.clauses[clause.id] = described
                    clauses.append(described)
                }
            }
            current = parent
        }
        return clauses.reversed()
    }

    private func describe(_ clause: IfConfigClauseSyntax, in list: IfConfigClauseListSyntax) -> Clause {
        var parts: [ReleaseCondition] = []
        var earlier: [String] = []
        for sibling in list {
            if sibling.id == clause.id { break }
            if let condition = sibling.condition {
                parts.append(.not(releaseCondition(of: condition)))
                earlier.append(Self.normalized(condition))
            }
        }
        let keyword = clause.poundKeyword.text
        var quoted: String
        if let condition = clause.condition {
            parts.append(releaseCondition(of: condition))
            quoted = "\(keyword) \(Self.normalized(condition))"
        } else {
            quoted = keyword
        }
        if !earlier.isEmpty, keyword != "#if" {
            quoted += " (after #if \(earlier.joined(separator: " / #elseif ")))"
        }
        return Clause(id: clause.id, requirement: ReleaseCondition.all(parts), quoted: quoted)
    }

    /// Made once: `OperatorTable.logicalOperators` builds a new table on every use.
    private static let logicalOperators = OperatorTable.logicalOperators

    /// The condition of an `#if` clause with `&&`, `||` folded by precedence. Folded detached:
    /// folding a node in its tree rebuilds every node from it up to the file's root, for each
    /// condition of each clause asked about.
    func releaseCondition(of expression: ExprSyntax) -> ReleaseCondition {
        let detached = expression.detached
        let folded = Self.logicalOperators.foldAll(detached) { _ in }
        return convert(folded.as(ExprSyntax.self) ?? detached)
    }

    private func convert(_ expression: ExprSyntax) -> ReleaseCondition {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return convert(only.expression)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return .not(convert(prefix.expression))
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)
        {
            switch op.operator.text {
            case "&&": return .and(convert(infix.leftOperand), convert(infix.rightOperand))
            case "||": return .or(convert(infix.leftOperand), convert(infix.rightOperand))
            default: break
            }
        }
        if let literal = expression.as(BooleanLiteralExprSyntax.self) {
            return .constant(literal.literal.tokenKind == .keyword(.true))
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return flags.flag(reference.baseName.text)
        }
        return .atom(Self.normalized(expression))
    }

    /// Source text without comments, spacing normalised (`os( iOS )` and `os(iOS)` are one atom):
    /// one space where the source had whitespace, none inside parentheses or before commas.
    static func normalized(_ node: some SyntaxProtocol) -> String {
        var text = ""
        var spaceBefore = false
        var previous: TokenKind? = nil
        for token in node.tokens(viewMode: .sourceAccurate) {
            let glued =
                previous == .leftParen || previous == .prefixOperator("!") || token.tokenKind == .rightParen
                || token.tokenKind == .comma
            if previous != nil, !glued, spaceBefore || token.leadingTrivia.contains(where: \.isWhitespace) {
                text += " "
            }
            text += token.text
            spaceBefore = token.trailingTrivia.contains(where: \.isWhitespace)
            previous = token.tokenKind
        }
        return text
    }
}

/// The enclosing-clause descriptions of one syntax tree and the verdicts under them: each `#if`
/// clause's condition folded, converted and quoted once, and each innermost clause's verdict
/// decided once, however many nodes inside it are asked about (every declaration and reference
/// of a file wrapped in `#if os(iOS)` asks about the same clause). Keys are node
/// identities, unique within one tree only, so a memo belongs to one tree (`ParsedSwiftFile`)
/// and is used as the file is, by one thread at a time; a description also depends on the
/// evaluator's flags, so an evaluator with other flags starts the memo afresh.
package final class ClauseMemo {
    private var flags: ReleaseBuildFlags?
    fileprivate var clauses: [SyntaxIdentifier: ReleaseConditionEvaluator.Clause] = [:]
    /// By innermost clause.
    fileprivate var verdicts: [SyntaxIdentifier: ReleaseConditionEvaluator.Verdict] = [:]

    package init() {}

    fileprivate func use(for flags: ReleaseBuildFlags) {
        guard flags != self.flags else { return }
        self.flags = flags
        clauses = [:]
        verdicts = [:]
    }
}

extension TriviaPiece {
    var isWhitespace: Bool {
        switch self {
        case .spaces, .tabs, .newlines, .carriageReturns, .carriageReturnLineFeeds: true
        default: false
        }
    }
}
