import AndroidArtifacts
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct AndroidRuleExampleTests {
    @Test(arguments: AndroidInspector.ownRules(among: RuleRegistry.rules).descriptions.map(\.id))
    func ruleAgreesWithItsExamples(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        let inspector = AndroidInspector(configuration: Configuration(), rules: RuleRegistry.rules)
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            let (artifact, places) = try AndroidArtifact.example(text)
            return RuleExampleVerifier.Scanned(inspector.check(artifact), places: places)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}

/// The examples' text form: each line declares the place of its findings.
@Suite struct AndroidExampleFormTests {
    /// Each line declares the path its findings are at, relative to the artifact's root; a
    /// finding about a folder (an ABI's libraries) belongs to the lines of the files in it.
    @Test func eachLineDeclaresThePathOfItsFindings() throws {
        let (artifact, places) = try AndroidArtifact.example(
            "kind aab\nmanifest base/manifest/AndroidManifest.xml\nbundle-config uncompressed=true\nlib base/lib/x86/libapp.so"
        )
        func lines(_ inner: String) -> [Int] {
            places.lines(of: .binary(BinaryLocation(path: inner.isEmpty ? artifact.root : "\(artifact.root)/\(inner)")))
        }
        #expect(lines("base/manifest/AndroidManifest.xml") == [2])
        #expect(lines("BundleConfig.pb") == [3])
        #expect(lines("base/lib/x86") == [4])
        #expect(lines("") == [1])
    }
}
