import SwiftSyntax

/// An assignment statement in an initialiser body, `name = value` or `self.name = value`
/// (the parser leaves `a = b` as an unfolded sequence expression).
struct Assignment {
    var statement: SequenceExprSyntax
    /// The assigned name (`_model` for `self._model = …`).
    var target: TokenSyntax
    /// What follows `=`: one expression, or the elements of an operator sequence.
    var value: [ExprSyntax]

    /// The single value expression, when the right-hand side is not an operator sequence.
    var singleValue: ExprSyntax? { value.count == 1 ? value[0] : nil }

    /// Every assignment in `body`, outside closures, nested functions and nested types (whose
    /// `self` is another one).
    static func all(in body: CodeBlockSyntax) -> [Assignment] {
        let finder = Finder()
        finder.walk(body)
        return finder.assignments
    }

    private final class Finder: SyntaxVisitor {
        var assignments: [Assignment] = []

        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            let elements = Array(node.elements)
            if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self),
                let target = Assignment.targetName(elements[0])
            {
                assignments.append(Assignment(statement: node, target: target, value: Array(elements[2...])))
            }
            return .visitChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: MemberBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }

    /// `name` or `self.name`.
    private static func targetName(_ expression: ExprSyntax) -> TokenSyntax? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return reference.baseName
        }
        if let member = expression.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        {
            return member.declName.baseName
        }
        return nil
    }
}

extension ExprSyntax {
    /// The expression without `try`, `await` and redundant parentheses around it.
    var withoutWrappers: ExprSyntax {
        if let expression = self.as(TryExprSyntax.self) { return expression.expression.withoutWrappers }
        if let expression = self.as(AwaitExprSyntax.self) { return expression.expression.withoutWrappers }
        if let tuple = self.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.label == nil
        {
            return only.expression.withoutWrappers
        }
        return self
    }
}
