import AndroidArtifacts
import ScanEngine
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

/// The examples' text form: a line it does not read, or a value outside its list, is an error
/// naming the line, so a mistyped example cannot pass by testing something else.
@Suite struct AndroidExampleFormTests {
    @Test(arguments: [
        "knd apk",  // a mistyped keyword
        "kind apkx",  // an unknown artifact kind
        "upload 2026-06-0x",  // not YYYY-MM-DD
        "file",  // no path
        "manifest AndroidManifest.xml debuggable=yes",  // a flag is true or false
        "manifest AndroidManifest.xml feature=android.hardware.camera",  // an unknown form factor
        "manifest AndroidManifest.xml colour=blue",  // an unknown manifest key
        "manifest lib/AndroidManifest.xml",  // no manifest of an apk lies there
        "bundle-config alignment=8k",  // an unknown alignment
        "lib lib/arm64-v8a/libapp.so machine=mips",  // an unknown machine
        "lib lib/arm64-v8a/libapp.so shdr=broken",  // an unknown section-header problem
        "lib lib/arm64-v8a/libapp.so align=4096"  // alignments are 0xHEX
    ])
    func anUnknownValueIsAnErrorNamingTheLine(_ line: String) {
        #expect {
            try AndroidArtifact(example: "manifest AndroidManifest.xml versionCode=3\n\n\(line)")
        } throws: { error in
            (error as? InputError)?.line == 3
        }
    }

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
