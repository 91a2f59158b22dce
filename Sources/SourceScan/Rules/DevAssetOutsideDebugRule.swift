import ShipcheckCore

enum DevAssetOutsideDebugRule {
    static let id = "dev-asset-outside-debug"

    static let description = RuleDescription(
        id: id,
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
            RuleExample("""
                import SwiftUI

                ↓struct PreviewData {
                    static let items = ["one", "two"]
                }
                """, path: "App/Preview Content/PreviewData.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent]),
            RuleExample("""
                import Foundation
                #if DEBUG
                let mockUser = "Ada"
                #endif
                ↓extension String {
                    static let mockTitle = "Title"
                }
                """, path: "App/Preview Content/Mocks.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent]),
            RuleExample("""
                #if os(iOS)
                ↓let sampleImage = "photo"
                #endif
                """, path: "App/Preview Content/Images.swift",
                companions: [ExampleProject.path: ExampleProject.pbxproj(assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \"$(SRCROOT)/App/Preview\\\\ Content\";")]),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                import SwiftUI

                #if DEBUG
                struct PreviewData {
                    static let items = ["one", "two"]
                }
                #endif
                """, path: "App/Preview Content/PreviewData.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent]),
            RuleExample("""
                struct PreviewData {}
                """, path: "App/Views/PreviewData.swift",
                companions: [ExampleProject.path: ExampleProject.withPreviewContent]),
            RuleExample("""
                struct PreviewData {}
                """, path: "App/Preview Content/PreviewData.swift",
                companions: [ExampleProject.path: ExampleProject.pbxproj(assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \"\";")]),
        ]
    )
}
