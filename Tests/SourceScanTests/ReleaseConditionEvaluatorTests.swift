import ShipcheckCore
import SwiftParser
import SwiftSyntax
import Testing

@testable import SourceScan

/// The three-valued `#if` evaluation: a preview is wrapped only when no platform, SDK or
/// unknown flag makes a release build compile it.
@Suite struct ReleaseConditionEvaluatorTests {
    /// Wraps `#Preview { P() }` in the given directive lines (`@` marks where it goes).
    private func isWrapped(_ template: String, debugOnly: Set<String> = [], releaseSet: Set<String> = []) -> Bool {
        var configuration = Configuration()
        configuration.debugOnlyFlags = debugOnly
        configuration.releaseSetFlags = releaseSet
        let source = template.replacingOccurrences(of: "@", with: "#Preview { P() }")
        return places(source, configuration: configuration).isEmpty
    }

    @Test(arguments: [
        "#if DEBUG\n@\n#endif",
        "#if !DEBUG\n#else\n@\n#endif",
        "#if canImport(SwiftUI) && DEBUG\n@\n#endif",
        "#if os(iOS)\n#if DEBUG\n@\n#endif\n#endif",
        "#if DEBUG && (os(iOS) || os(macOS))\n@\n#endif",
        "#if !(!DEBUG)\n@\n#endif",
        "#if !DEBUG || false\n#elseif true\n@\n#endif",
        "#if os(iOS)\n#elseif os(iOS) && !DEBUG\n#else\n#if os(iOS)\n@\n#endif\n#endif",
        "#if os(iOS) && !os(iOS)\n@\n#endif",
        "#if DEBUG\n#if swift(>=5.9)\n#if targetEnvironment(simulator)\n@\n#endif\n#endif\n#endif"
    ])
    func wrapped(_ template: String) {
        #expect(isWrapped(template), "\(template)")
    }

    @Test(arguments: [
        "@",
        "#if DEBUG\nlet x = 1\n#endif\n@",
        "#if DEBUG || targetEnvironment(simulator)\n@\n#endif",
        "#if !os(watchOS)\n@\n#endif",
        "#if DEBUG\n#else\n@\n#endif",
        "#if !DEBUG\n@\n#endif",
        "#if os(iOS)\n#elseif DEBUG\n#else\n@\n#endif",
        "#if os(iOS)\n#else\n#if !os(iOS)\n@\n#endif\n#endif",
        "#if RELEASE_LIKE\n@\n#endif",
        "#if true\n@\n#endif",
        "#if DEBUG || !DEBUG\n@\n#endif"
    ])
    func compiledInRelease(_ template: String) {
        #expect(!isWrapped(template), "\(template)")
    }

    @Test func configuredFlags() {
        #expect(isWrapped("#if PREVIEWS\n@\n#endif", debugOnly: ["PREVIEWS"]))
        #expect(!isWrapped("#if PREVIEWS\n@\n#endif"))
        #expect(isWrapped("#if APPSTORE\n#else\n@\n#endif", releaseSet: ["APPSTORE"]))
        #expect(!isWrapped("#if APPSTORE\n#else\n@\n#endif"))
    }

    /// The same unknown in two clauses takes one value: `os(iOS)` cannot be both.
    @Test func correlatedUnknownsAreOneValue() {
        #expect(isWrapped("#if os(iOS)\n#if !os(iOS)\n@\n#endif\n#endif"))
        #expect(isWrapped("#if os( iOS )\n#else\n#if os(iOS) || DEBUG\n@\n#endif\n#endif"))
        // Different unknowns stay independent.
        #expect(!isWrapped("#if os(iOS)\n#if !os(macOS)\n@\n#endif\n#endif"))
    }

    @Test func everyDirectivePosition() {
        // Member position.
        #expect(places("struct S {\n#if DEBUG\n#Preview { P() }\n#endif\n}\n").isEmpty)
        // Statement position inside a function.
        #expect(places("func f() {\n#if os(iOS)\n#Preview { P() }\n#endif\n}\n") == ["3:1 preview-outside-debug"])
        // Switch-case position.
        let switchCase =
            "func f(x: Int) {\nswitch x {\n#if DEBUG\ncase 1:\n#Preview { P() }\n#endif\ndefault: break\n}\n}\n"
        #expect(places(switchCase).isEmpty)
        let switchCaseRelease =
            "func f(x: Int) {\nswitch x {\n#if os(iOS)\ncase 1:\n#Preview { P() }\n#endif\ndefault: break\n}\n}\n"
        #expect(places(switchCaseRelease) == ["5:1 preview-outside-debug"])
        // Postfix-expression position: a closure argument inside `#if` after a member access.
        let postfix = "let v = Text(\"a\")\n#if DEBUG\n.overlay { #Preview { P() } }\n#endif\n"
        #expect(places(postfix).isEmpty)
        // Attribute position: the `#if` around the attribute does not cover the preview.
        let attribute = "#if DEBUG\n@available(iOS 17, *)\n#endif\nstruct V_Previews: PreviewProvider {}\n"
        #expect(places(attribute) == ["4:1 preview-provider-outside-debug"])
    }

    @Test func messagesNameTheConditionThatLeaksAndTheEnclosingClauses() throws {
        let evaluator = ReleaseConditionEvaluator()
        let tree = Parser.parse(
            source: "#if os(iOS)\n#elseif DEBUG || targetEnvironment(simulator)\nlet x = 1\n#endif\n")
        let item = try #require(tree.statements.first?.item.as(IfConfigDeclSyntax.self)?.clauses.last?.elements)
        guard case .statements(let statements) = item, let statement = statements.first else {
            Issue.record("no statement")
            return
        }
        #expect(
            evaluator.verdict(for: statement, memo: ClauseMemo())
                == .compiled(
                    when: ["!os(iOS)", "targetEnvironment(simulator)"],
                    enclosing: ["#elseif DEBUG || targetEnvironment(simulator) (after #if os(iOS))"]))
    }

    /// A tree's memo only saves work: every node gets the answer a fresh evaluation gives, also
    /// when evaluators with other flags take turns on the same memo.
    @Test func theClauseMemoGivesTheAnswersOfAFreshEvaluation() {
        let tree = Parser.parse(
            source: """
                #if os(iOS) || TESTING
                let a = 1
                #if DEBUG
                let b = 2
                #elseif RELEASE && canImport(UIKit)
                let c = 3
                #else
                let d = 4
                #endif
                #elseif os(macOS)
                let e = 5
                #else
                let f = 6
                #endif
                """)
        final class Items: SyntaxVisitor {
            var nodes: [Syntax] = []
            override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
                nodes.append(Syntax(node))
                return .visitChildren
            }
        }
        let items = Items(viewMode: .sourceAccurate)
        items.walk(tree)
        #expect(items.nodes.count >= 6)
        let plain = ReleaseConditionEvaluator()
        let flagged = ReleaseConditionEvaluator(debugOnlyFlags: ["TESTING"], releaseSetFlags: ["RELEASE"])
        let shared = ClauseMemo()
        for node in items.nodes + items.nodes {
            for evaluator in [plain, flagged] {
                #expect(
                    evaluator.verdict(for: node, memo: shared) == evaluator.verdict(for: node, memo: ClauseMemo()),
                    "\(node.trimmedDescription)")
            }
        }
    }

    @Test func manyDistinctUnknownsFallBackToAConservativeAnswer() {
        let many = (1...20).map { "FLAG\($0)" }
        let excluded = "#if (" + many.joined(separator: " || ") + ") && DEBUG\n@\n#endif"
        #expect(isWrapped(excluded))
        let leaking = "#if " + many.joined(separator: " || ") + "\n@\n#endif"
        #expect(!isWrapped(leaking))
    }
}
