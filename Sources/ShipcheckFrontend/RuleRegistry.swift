import AndroidArtifacts
import BinaryInspect
import ConflictScan
import ReleaseAudit
import ReleaseDiff
import SavedQueries
import ShipcheckCore
import SourceScan
import StorePreflight

/// Every rule of shipcheck, in one list: what reports list (SARIF `tool.driver.rules`), what
/// the configuration's `rules:` may name, and what each check takes its rules from (a check
/// runs the rules of its kind: `SwiftSourceRule`, `ProjectRule`, `BuildSettingRule`,
/// `PrivacyProjectRule`, the conflict rules, the binary and bundle rules). A new rule is one
/// file plus one line here (docs/adding-a-rule.md); a rule read in several kinds of input is
/// one folder, one file per kind.
package enum RuleRegistry {
    package static let rules: [any Rule.Type] = [
        // Sources: previews and Development Assets (SourceScan).
        PreviewOutsideDebugRule.self,
        PreviewProviderOutsideDebugRule.self,
        DevAssetOutsideDebugRule.self,
        DevAssetPathMissingRule.self,
        // Sources: release bugs that compile cleanly (SourceScan).
        StateBuiltInInitRule.self,
        DynamicPropertyCapturesSelfRule.self,
        UncheckedSendableClosureRule.self,
        // Merge conflicts (ConflictScan).
        ConflictMarkerRule.self,
        ConflictMarkerRemnantRule.self,
        UnmergedPathRule.self,
        MergeInProgressRule.self,
        // Release binaries (BinaryInspect).
        PreviewConformanceRule.self,
        PreviewMacroRule.self,
        PreviewableWrapperRule.self,
        XCTestCaseRule.self,
        SwiftTestingRecordRule.self,
        TestLibraryDependencyRule.self,
        MockSymbolRule.self,
        // Before BuildPathsRule: a path it reports (Preview Content) is not a build path's finding too.
        FixtureStringRule.self,
        BuildPathsRule.self,
        BuildFactsRule.self,
        // Apple bundles and .ipa files as a whole (BinaryInspect).
        DebugDylibRule.self,
        GetTaskAllowRule.self,
        DevelopmentPushRule.self,
        DevelopmentProfileRule.self,
        TestResourceRule.self,
        // App Store pre-flight: what App Store Connect refuses, from the bundle model (StorePreflight's
        // AppStore/; the bitcode and dSYM rules, which read build settings too, in its Project/).
        TestCodeLinkedRule.self,
        UnsupportedArchitectureRule.self,
        BitcodeRule.self,
        SDKTooOldRule.self,
        FrameworkMinimumOSRule.self,
        MinimumOSMismatchRule.self,
        BundleVersionRule.self,
        ExtensionVersionRule.self,
        ProfileIdentityRule.self,
        DSYMMissingRule.self,
        SDKPrivacyManifestRule.self,
        SDKSignatureRule.self,
        // Google Play pre-flight (StorePreflight's GooglePlay/, the play- rules) and Android's loader
        // (AndroidArtifacts, the android- rules): Android artifacts.
        LoadAlignmentRule.self,
        ZipAlignmentRule.self,
        SixtyFourBitRule.self,
        DebuggableRule.self,
        TestOnlyRule.self,
        TargetSDKRule.self,
        VersionCodeRule.self,
        NeededLibraryRule.self,
        NeededPathRule.self,
        TextRelocationsRule.self,
        ELFRefusedRule.self,
        DebugInfoRule.self,
        // A release against the previous one: upload refusals and what an update adds (ReleaseDiff).
        BuildNotIncreasedRule.self,
        VersionLowerRule.self,
        IdentifierChangedRule.self,
        TestLibraryAddedRule.self,
        SensitivePermissionAddedRule.self,
        PrivacyDetailsRule.self,
        DevicesDroppedRule.self,
        SizeBudgetRule.self,
        // Saved queries (SavedQueries).
        SavedQueryRule.self,
        // Build settings and archive breakers (ReleaseAudit).
        ReleaseDefinesDebugRule.self,
        ReleaseDebugPreprocessorMacroRule.self,
        ReleaseUnoptimizedRule.self,
        ReleaseTestabilityRule.self,
        ArchiveBreakerRule.self,
        // App Store pre-flight: privacy manifests and purpose strings, in artifacts and projects
        // (StorePreflight's Project/, a folder per rule with its bundle and project checks; run by
        // BinaryInspect's bundle walk and StorePreflight's PrivacyDeclarationsCheck).
        RequiredReasonAPIRule.self,
        PrivacyManifestInvalidRule.self,
        PurposeStringRule.self
    ]

    package static let descriptions: [RuleDescription] = rules.descriptions

    package static let ids: Set<String> = Set(descriptions.map(\.id))
}
