import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// `--fix` for `state-built-in-init`: moves a plain `let x = Type(…)` into the autoclosure
/// of the `StateObject(wrappedValue: x)` that is its only use, deleting the `let` line:
///
///     let observer = Observer(episode: episode)          _observer = StateObject(wrappedValue:
///     _observer = StateObject(wrappedValue: observer)  →     Observer(episode: episode))
///
/// Only when nothing can tell the difference but SwiftUI: the construction is the value of a
/// single `let`, the name is used nowhere else, both statements sit in the same block, and the
/// statements between them call nothing and assign nothing the construction reads.
struct ConstructionMove: Sendable, Hashable {
    /// Whole lines holding the `let` statement, line terminator included.
    var declarationLines: Range<Int>
    /// The `let` statement itself (whose tokens disappear).
    var declaration: Range<Int>
    /// The argument token naming the local.
    var reference: Range<Int>
    /// `Type(…)`, the local's initial value (whose tokens replace the reference).
    var construction: Range<Int>

    struct Refusal: Error {
        var text: String
    }

    static func plan(
        binding: PatternBindingSyntax, reference: DeclReferenceExprSyntax, statement: SequenceExprSyntax,
        body: CodeBlockSyntax, bytes: [UInt8]
    ) -> Result<ConstructionMove, Refusal> {
        let name = reference.baseName.text
        guard let decl = binding.parent?.parent?.as(VariableDeclSyntax.self),
            decl.bindingSpecifier.tokenKind == .keyword(.let),
            decl.bindings.count == 1, decl.attributes.isEmpty, decl.modifiers.isEmpty,
            let value = binding.initializer?.value, let call = value.as(FunctionCallExprSyntax.self),
            StateInitFinder.constructedType(call.calledExpression, impliedType: binding.typeAnnotation?.type) != nil
        else {
            return .failure(Refusal(text: "`\(name)` is not a plain `let \(name) = Type(…)`"))
        }
        guard let declItem = decl.parent?.as(CodeBlockItemSyntax.self),
            let assignItem = statement.parent?.as(CodeBlockItemSyntax.self),
            let block = declItem.parent?.as(CodeBlockItemListSyntax.self), assignItem.parent?.id == block.id,
            let declIndex = block.index(of: declItem), let assignIndex = block.index(of: assignItem),
            declIndex < assignIndex
        else {
            return .failure(Refusal(text: "the construction and the assignment are not statements of the same block"))
        }
        if let other = Self.uses(of: name, in: body).first(where: { $0.id != reference.id }),
            let use = other.ancestorStatement
        {
            return .failure(
                Refusal(
                    text: "`\(Self.quote(use))` uses `\(name)` too, so the object is set up outside the autoclosure"))
        }
        for item in block[block.index(after: declIndex)..<assignIndex]
        where Self.mayBeObserved(item, construction: value) {
            return .failure(
                Refusal(
                    text:
                        "`\(Self.quote(Syntax(item)))` runs between the construction and the assignment and may have side effects"
                ))
        }
        guard let lines = Self.wholeLines(of: decl, in: bytes) else {
            return .failure(Refusal(text: "other code shares a line with `let \(name)`"))
        }
        return .success(
            ConstructionMove(
                declarationLines: lines,
                declaration: decl.positionAfterSkippingLeadingTrivia
                    .utf8Offset..<decl.endPositionBeforeTrailingTrivia.utf8Offset,
                reference: reference.positionAfterSkippingLeadingTrivia
                    .utf8Offset..<reference.endPositionBeforeTrailingTrivia.utf8Offset,
                construction: value.positionAfterSkippingLeadingTrivia
                    .utf8Offset..<value.endPositionBeforeTrailingTrivia.utf8Offset))
    }

    /// References to `name` (not `something.name`).
    private static func uses(of name: String, in body: CodeBlockSyntax) -> [DeclReferenceExprSyntax] {
        body.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard token.text == name, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id
            else { return nil }
            return reference
        }
    }

    /// Whether moving `construction` past `item` could change what either does: `item` calls
    /// something (or may: closures, `try`, `await`, macros, subscripts, `+=`) or assigns
    /// something the construction reads.
    private static func mayBeObserved(_ item: CodeBlockItemSyntax, construction: ExprSyntax) -> Bool {
        let comparisons: Set<String> = ["==", "!=", "<=", ">=", "===", "!=="]
        for token in item.tokens(viewMode: .sourceAccurate) {
            guard let node = token.parent else { continue }
            if node.is(FunctionCallExprSyntax.self) || node.is(ClosureExprSyntax.self) || node.is(TryExprSyntax.self)
                || node.is(AwaitExprSyntax.self) || node.is(MacroExpansionExprSyntax.self)
                || node.is(SubscriptCallExprSyntax.self)
            {
                return true
            }
            if node.is(BinaryOperatorExprSyntax.self), token.text.hasSuffix("="), !comparisons.contains(token.text) {
                return true
            }
            if node.is(AssignmentExprSyntax.self) {
                guard let target = node.parent?.parent?.as(SequenceExprSyntax.self)?.elements.first,
                    reads(construction, target)
                else { continue }
                return true
            }
        }
        return false
    }

    /// Whether `construction` may read what assigning to `target` changes: for `self.x`, an
    /// explicit `self` or an `x` that is not a parameter or local; for a plain `x`, any `x`.
    private static func reads(_ construction: ExprSyntax, _ target: ExprSyntax) -> Bool {
        let references = construction.tokens(viewMode: .sourceAccurate)
        if let member = target.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        {
            let name = member.declName.baseName.text
            return references.contains {
                $0.tokenKind == .keyword(.self) || ($0.text == name && !LocalName($0, at: $0).isLocal)
            }
        }
        let names = Set(target.tokens(viewMode: .sourceAccurate).map(\.text))
        return references.contains { names.contains($0.text) }
    }

    private static func quote(_ node: Syntax) -> String {
        let text = node.trimmedDescription.split(separator: "\n").first.map(String.init) ?? ""
        return text.count > 60 ? text.prefix(57) + "…" : text
    }

    /// The lines `decl` occupies, when it has them to itself (blanks and `;` aside).
    private static func wholeLines(of decl: VariableDeclSyntax, in bytes: [UInt8]) -> Range<Int>? {
        var start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return nil }
        var end = decl.endPositionBeforeTrailingTrivia.utf8Offset
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x3B || bytes[end] == 0x0D {
            end += 1
        }
        guard end == bytes.count || bytes[end] == 0x0A else { return nil }
        return start..<min(end + 1, bytes.count)
    }

    // MARK: Applying and verifying

    /// `bytes` with every move made. Moves must not overlap (distinct statements do not).
    static func apply(_ moves: [ConstructionMove], to bytes: [UInt8]) -> [UInt8] {
        var edits: [(range: Range<Int>, replacement: ArraySlice<UInt8>)] = []
        for move in moves {
            edits.append((move.declarationLines, []))
            edits.append((move.reference, bytes[move.construction]))
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for edit in edits {
            output += bytes[position..<edit.range.lowerBound]
            output += edit.replacement
            position = edit.range.upperBound
        }
        output += bytes[position...]
        return output
    }

    /// Whether `fixed` is exactly `original` with the moves made: it parses without errors
    /// and its tokens are the original's, minus each `let` statement, with each reference
    /// replaced by the construction's tokens.
    static func verify(original: SourceFileSyntax, moves: [ConstructionMove], fixed: [UInt8]) -> Bool {
        guard let text = String(validating: fixed, as: UTF8.self) else { return false }
        let tree = Parser.parse(source: text)
        guard !tree.hasError else { return false }
        let originalTokens = Array(original.tokens(viewMode: .sourceAccurate))
        func tokens(in range: Range<Int>) -> [TokenSyntax] {
            originalTokens.filter { range.contains($0.positionAfterSkippingLeadingTrivia.utf8Offset) }
        }
        var expected: [String] = []
        for token in originalTokens {
            let offset = token.positionAfterSkippingLeadingTrivia.utf8Offset
            if moves.contains(where: { $0.declaration.contains(offset) }) { continue }
            if let move = moves.first(where: { $0.reference.contains(offset) }) {
                expected += tokens(in: move.construction).map { "\($0.tokenKind)" }
                continue
            }
            expected.append("\(token.tokenKind)")
        }
        return tree.tokens(viewMode: .sourceAccurate).map { "\($0.tokenKind)" } == expected
    }
}
