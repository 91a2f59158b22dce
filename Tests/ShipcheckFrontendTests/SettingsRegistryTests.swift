import BinaryInspect
import ConflictScan
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import Testing

/// The capabilities' settings as the command reads them: the registry's types from the file
/// format the README documents.
@Suite struct SettingsRegistryTests {
    func parse(_ text: String) throws(InputError) -> Configuration {
        try ConfigurationLoader.parse(
            text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
    }

    @Test func everySectionDecodesIntoItsCapabilitysType() throws {
        let configuration = try parse(
            """
            binaries: [.build/release/App, "dist/*.apk"]
            queries: team/queries.yml
            conflicts:
              allow: [Docs/merging.md]
            bundle:
              distribution: release-testing
            """)
        #expect(configuration.settings(ArtifactSettings.self).binaries == [".build/release/App", "dist/*.apk"])
        #expect(configuration.settings(QuerySettings.self).file == "team/queries.yml")
        #expect(configuration.settings(ConflictSettings.self).allow.matches("Docs/merging.md"))
        #expect(configuration.settings(BundleSettings.self).distribution == .adHoc)
        // A single string is a one-element list, as everywhere in the file.
        #expect(try parse("binaries: build/App\n").settings(ArtifactSettings.self).binaries == ["build/App"])
    }

    /// No file, or a file that leaves a setting out: nothing to inspect unless named, the store
    /// in `.shipcheck/`, no file allowed to hold markers, the distribution from the artifact.
    @Test func unsetSettingsAreTheDefaults() throws {
        for configuration in [Configuration(), try parse("exclude: [Pods/**]\n")] {
            #expect(configuration.settings(ArtifactSettings.self).binaries.isEmpty)
            #expect(configuration.settings(QuerySettings.self).file == ".shipcheck/queries.yml")
            #expect(!configuration.settings(ConflictSettings.self).allow.matches("Docs/merging.md"))
            #expect(configuration.settings(BundleSettings.self).distribution == nil)
        }
    }

    @Test(arguments: [
        ("binaries:\n  app: build/App\n", 2, "'binaries' must be a list of strings"),
        ("exclude: []\nbinaries: [[a]]\n", 2, "'binaries' must be a list of strings"),
        ("queries: [a, b]\n", 1, "'queries' must be a string"),
        ("queries:\n", 1, "'queries' must be a string"),
        ("conflicts: [Docs/**]\n", 1, "'conflicts' must be a mapping"),
        ("conflicts:\n  allow: {Docs: true}\n", 2, "'conflicts.allow' must be a list of strings"),
        ("conflicts:\n  allow: []\n  alow: [Docs/**]\n", 3, "unknown key 'conflicts.alow' (expected one of 'allow')"),
        ("bundle: app-store\n", 1, "'bundle' must be a mapping"),
        (
            "bundle:\n  distribution: store\n", 2,
            "'bundle.distribution' must be one of app-store, app-store-connect, ad-hoc, release-testing, development, debugging, enterprise, developer-id"
        ),
        (
            "bundle:\n  distribution: ad-hoc\n  signing: manual\n", 3,
            "unknown key 'bundle.signing' (expected one of 'distribution', 'resource-patterns')"
        )
    ])
    func aBadValueNamesTheFileAndLine(text: String, line: Int, message: String) {
        #expect(throws: InputError(path: ".shipcheck.yml", line: line, message: message)) { try parse(text) }
    }

    /// `bundle:` holds the bundle's settings and `bundle-test-resource`'s former key.
    @Test func theBundleSectionHoldsAFormerKeyToo() throws {
        let configuration = try parse("bundle:\n  distribution: enterprise\n  resource-patterns: [Fixtures]\n")
        #expect(configuration.settings(BundleSettings.self).distribution == .enterprise)
        #expect(
            configuration.deprecations == [
                ".shipcheck.yml:3: note: 'bundle.resource-patterns' is deprecated; it is now 'rules.bundle-test-resource.patterns'"
            ])
    }

    /// `shipcheck init`'s file loads with every rule and setting of the command.
    @Test func starterConfigurationLoads() throws {
        let configuration = try parse(StarterConfiguration.text)
        #expect(!configuration.isScanned("Pods/Alamofire/Source.swift"))
        #expect(configuration.isScanned("App/View.swift"))
        #expect(configuration.settings(QuerySettings.self).file == ".shipcheck/queries.yml")
    }

    /// A settings type left out of the registry is never read: its keys would be unknown.
    @Test func everySettingsTypeInTheSourcesIsRegistered() throws {
        let declared = try SourceDeclarations.types(
            in: SourceDeclarations.texts(), conformingTo: ["CapabilitySettings"])
        let registered = Set(SettingsRegistry.settings.map { String(describing: $0) })
        #expect(declared.count >= 4, "the source scan found only \(declared.sorted())")
        #expect(declared == registered)
    }
}
