import ShipcheckCore
import SwiftSyntax

package enum DevAssetOutsideDebugRule: SwiftSourceRule {
    package static let concernsReleaseBuilds = true

    package static let description = RuleDescription(
        id: "dev-asset-outside-debug",
        summary: "A Swift file in Development Assets declares code that is compiled in release builds",
        rationale: """
            Folders listed in `DEVELOPMENT_ASSET_PATHS` (Xcode's "Preview Content") and in the \
            configuration's `development-paths` are dropped from Archive builds. Release code that \
            uses a declaration from them compiles in Debug and then fails at archive time, on CI, \
            the day of the release. Every declaration in such a file must be DEBUG-only (imports \
            may stay outside), so the mistake shows up in the first Release build instead. The \
            finding points at the first declaration that a release build would compile.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                """
                import SwiftUI

                ↓struct PreviewData {
                    static let items = ["one", "two"]
                }
                """, path: "App/Preview Content/PreviewData.swift",
                companions: ["Shared.xcconfig": previewContent]),
            RuleExample(
                """
                import Foundation
                #if DEBUG
                let mockUser = "Ada"
                #endif
                ↓extension String {
                    static let mockTitle = "Title"
                }
                """, path: "App/Preview Content/Mocks.swift",
                companions: ["Shared.xcconfig": previewContent]),
            RuleExample(
                """
                #if os(iOS)
                ↓let sampleImage = "photo"
                #endif
                """, path: "App/Preview Content/Images.swift",
                companions: ["Shared.xcconfig": "DEVELOPMENT_ASSET_PATHS = $(SRCROOT)/App/Preview\\ Content\n"])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                import SwiftUI

                #if DEBUG
                struct PreviewData {
                    static let items = ["one", "two"]
                }
                #endif
                """, path: "App/Preview Content/PreviewData.swift",
                companions: ["Shared.xcconfig": previewContent]),
            RuleExample(
                """
                struct PreviewData {}
                """, path: "App/Views/PreviewData.swift",
                companions: ["Shared.xcconfig": previewContent]),
            RuleExample(
                """
                struct PreviewData {}
                """, path: "App/Preview Content/PreviewData.swift",
                companions: ["Shared.xcconfig": "DEVELOPMENT_ASSET_PATHS =\n"])
        ]
    )

    /// The examples' project setting: Xcode's default Development Assets folder.
    private static let previewContent = "DEVELOPMENT_ASSET_PATHS = \"App/Preview Content\"\n"

    package static let requiredText: [String] = []
    package static let checksEveryDevelopmentAsset = true

    package static func check(_ file: ParsedSwiftFile, _ context: SwiftRuleContext) -> [SourceFinding] {
        guard let reason = context.developmentReason,
            let (item, when, enclosing) = firstReleaseCompiledItem(
                in: file.tree.statements, context.evaluator, file.clauseMemo),
            let anchor = item.firstToken(viewMode: .sourceAccurate)
        else { return [] }
        var subject = Substring(file.lineText(of: anchor))
        while let last = subject.last, last == "{" || last == " " { subject = subject.dropLast() }
        let finding = file.finding(
            self, at: anchor,
            message:
                "'\(subject)' is \(CompiledPhrase.text(when: when, enclosing: enclosing)), but this file is in Development Assets (\(reason)), which Archive builds drop",
            identity: "development asset: \(ReleaseConditionEvaluator.normalized(item).prefix(120))",
            fixHint: "wrap every declaration of the file (imports may stay outside) in #if DEBUG … #endif")
        return [SourceFinding(finding: finding, leadingLines: file.leadingLines(of: item))]
    }

    /// The first statement or declaration (not an import, not an `#if` itself) that a release
    /// build compiles, looking through `#if` clauses.
    private static func firstReleaseCompiledItem(
        in items: CodeBlockItemListSyntax, _ evaluator: ReleaseConditionEvaluator, _ memo: ClauseMemo
    ) -> (Syntax, [String], [String])? {
        for item in items {
            if let ifConfig = item.item.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case .statements(let inner)? = clause.elements,
                        let found = firstReleaseCompiledItem(in: inner, evaluator, memo)
                    {
                        return found
                    }
                }
                continue
            }
            if item.item.is(ImportDeclSyntax.self) { continue }
            if case .compiled(let when, let enclosing) = evaluator.verdict(for: item, memo: memo) {
                return (Syntax(item), when, enclosing)
            }
        }
        return nil
    }
}
