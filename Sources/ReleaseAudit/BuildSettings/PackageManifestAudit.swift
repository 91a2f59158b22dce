import ShipcheckCore
import SwiftParser
import SwiftSyntax

/// Audits a `Package.swift` as Swift source (parsed, never executed): settings that apply to
/// release builds and define DEBUG, turn optimisation off or enable testability.
///
/// A setting applies to release unless its condition argument says
/// `.when(configuration: .debug)`; a platform-only condition still covers release.
package struct PackageManifestAudit: Sendable {
    package var rules: [any BuildSettingRule.Type]
    package var debugOnlyFlags: Set<String>

    package init(rules: [any BuildSettingRule.Type], debugOnlyFlags: Set<String> = []) {
        self.rules = rules
        self.debugOnlyFlags = debugOnlyFlags.union(["DEBUG"])
    }

    /// Findings for one manifest's text, at the rules' default severities.
    package func audit(source: String, path: String) -> [Finding] {
        audit(tree: Parser.parse(source: source), path: path)
    }

    /// Findings for one parsed manifest, at the rules' default severities.
    package func audit(tree: SourceFileSyntax, path: String) -> [Finding] {
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let visitor = SettingCallVisitor(viewMode: .sourceAccurate)
        visitor.walk(tree)
        return visitor.calls.flatMap { findings(for: $0, path: path, converter: converter) }
    }

    private func findings(for call: FunctionCallExprSyntax, path: String, converter: SourceLocationConverter)
        -> [Finding]
    {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), !appliesOnlyToDebug(call) else {
            return []
        }
        let kind = settingKind(of: call)
        let target = enclosingTargetName(call).map { "target '\($0)'" } ?? "the package"
        let arguments = Array(call.arguments)
        let setting: ManifestSetting
        switch member.declName.baseName.text {
        case "define":
            guard let name = arguments.first.flatMap({ Self.stringLiteral($0.expression) }) else { return [] }
            setting = ManifestSetting(call: .define(name), kind: kind, target: target, debugOnlyFlags: debugOnlyFlags)
        case "unsafeFlags":
            let flags =
                arguments.first?.expression.as(ArrayExprSyntax.self)?.elements.compactMap {
                    Self.stringLiteral($0.expression)
                } ?? []
            setting = ManifestSetting(
                call: .unsafeFlags(flags), kind: kind, target: target, debugOnlyFlags: debugOnlyFlags)
        default:
            return []
        }
        let problems = rules.flatMap { rule in rule.manifestProblems(setting).map { (rule, $0) } }
        let start = call.positionAfterSkippingLeadingTrivia
        let location = converter.location(for: start)
        let end = converter.location(for: call.endPositionBeforeTrailingTrivia)
        return problems.map { rule, message in
            Finding(
                ruleID: rule.id, severity: rule.description.defaultSeverity, message: message,
                location: .source(
                    SourceLocation(
                        path: path, line: location.line, column: location.column, endLine: end.line,
                        endColumn: end.column)),
                snippet: call.trimmedDescription,
                fixHint: "add .when(configuration: .debug) to this setting",
                identity: "\(target) \(call.trimmedDescription)"
            )
        }
    }

    /// True when the call's condition argument restricts it to the debug configuration.
    private func appliesOnlyToDebug(_ call: FunctionCallExprSyntax) -> Bool {
        for argument in call.arguments {
            guard let condition = argument.expression.as(FunctionCallExprSyntax.self),
                condition.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "when"
            else { continue }
            for parameter in condition.arguments where parameter.label?.text == "configuration" {
                if parameter.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "debug" {
                    return true
                }
            }
        }
        return false
    }

    /// Which settings list holds the call: the label of the enclosing argument, e.g. `swiftSettings`.
    private func settingKind(of call: FunctionCallExprSyntax) -> String {
        var node: Syntax? = Syntax(call).parent
        while let current = node {
            if let argument = current.as(LabeledExprSyntax.self), let label = argument.label?.text,
                label.hasSuffix("Settings")
            {
                return label
            }
            node = current.parent
        }
        return "settings"
    }

    /// The `name:` of the `.target(...)`-like call around this setting.
    private func enclosingTargetName(_ call: FunctionCallExprSyntax) -> String? {
        var node: Syntax? = Syntax(call).parent
        while let current = node {
            if let outer = current.as(FunctionCallExprSyntax.self),
                outer.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text.hasSuffix("arget")
                    == true,
                let name = outer.arguments.first(where: { $0.label?.text == "name" }).flatMap({
                    Self.stringLiteral($0.expression)
                })
            {
                return name
            }
            node = current.parent
        }
        return nil
    }

    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
            let segment = literal.segments.first?.as(StringSegmentSyntax.self)
        else { return nil }
        return segment.content.text
    }
}

/// Collects `.define(...)` and `.unsafeFlags(...)` calls; comments and strings are trivia or
/// literals, so text that merely mentions them is never seen.
private final class SettingCallVisitor: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
            ["define", "unsafeFlags"].contains(member.declName.baseName.text)
        {
            calls.append(node)
        }
        return .visitChildren
    }
}
