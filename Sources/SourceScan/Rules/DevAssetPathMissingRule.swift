import ShipcheckCore

enum DevAssetPathMissingRule {
    static let id = "dev-asset-path-missing"

    static let description = RuleDescription(
        id: id,
        summary: "A DEVELOPMENT_ASSET_PATHS entry names a path that does not exist",
        rationale: """
            Xcode fails every build of the target ("One of the paths in DEVELOPMENT_ASSET_PATHS \
            does not exist") when a listed folder is missing — typically after the Preview Content \
            folder was renamed or moved. The finding points at the setting in the project file \
            (or `.xcconfig`, or `project.yml`) and names the target and configuration.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(ExampleProject.pbxproj(assetPathsLine: "\t\t\t\t↓DEVELOPMENT_ASSET_PATHS = \"\\\"App/Preview Content\\\"\";"),
                        path: ExampleProject.path),
            RuleExample(ExampleProject.pbxproj(assetPathsLine: "\t\t\t\t↓DEVELOPMENT_ASSET_PATHS = \"App/Exists $(SRCROOT)/Moved\";"),
                        path: ExampleProject.path, companions: ["App/Exists/Sample.json": "{}"]),
        ],
        nonTriggeringExamples: [
            RuleExample(ExampleProject.pbxproj(assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \"\\\"App/Preview Content\\\"\";"),
                        path: ExampleProject.path, companions: ["App/Preview Content/Sample.json": "{}"]),
            RuleExample(ExampleProject.pbxproj(assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \"\";"),
                        path: ExampleProject.path),
        ]
    )
}
