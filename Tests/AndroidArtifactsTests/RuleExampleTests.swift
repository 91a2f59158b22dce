import AndroidArtifacts
import BinaryInspect
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// Every Android rule's examples judged the way real input is: the example's artifact written
/// as the files a build makes (`AndroidExampleWriter`: zips, binary / protobuf / text
/// manifests, BundleConfig.pb, ELF libraries at their zip offsets), read by the production
/// entry (`AndroidInspector.inspect`), and its findings compared with the `↓` markers. Any input
/// error on an example is a failure: an example the readers cannot read tests nothing.
@Suite struct AndroidRuleExampleTests {
    static let rules = AndroidInspector.ownRules(among: RuleRegistry.rules)

    @Test(arguments: rules.descriptions.map(\.id))
    func ruleAgreesWithItsExamples(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        var inputFailures: [String] = []
        // Every example is checked with the rules (Android's and the leak rules run on its
        // libraries) in several orders, which must agree.
        var differences: [String] = []
        let failures = try RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            let (artifact, places) = try AndroidArtifact.example(text)
            guard ELFSupport.isBuilt || artifact.libraries.allSatisfy({ $0.elf == nil }) else {
                // A build without libelf (macOS) reads no library: an example that states ELF
                // facts is judged on the facts its text states, the rest through the bytes.
                let findings = RuleOrders.findings(of: RuleRegistry.rules, differences: &differences) { rules in
                    AndroidInspector(configuration: Configuration(), rules: rules).check(artifact)
                }
                return RuleExampleVerifier.Scanned(findings, places: places)
            }
            let directory = TemporaryDirectory("shipcheck-android-example")
            let root = try AndroidExampleWriter.write(artifact, into: directory)
            let result = RuleOrders.result(of: RuleRegistry.rules, differences: &differences) { rules in
                AndroidInspector(configuration: Configuration(), rules: rules).inspect(
                    root, with: BinaryInspector(configuration: Configuration(), rules: rules),
                    uploadDay: artifact.uploadDay)
            }
            if !result.inputErrors.isEmpty {
                inputFailures.append("\(id): input errors \(result.inputErrors.map(\.description)) in:\n\(text)")
            }
            // The lines declare paths inside the artifact, now under the written root.
            return RuleExampleVerifier.Scanned(
                result.findings, places: ExamplePlaces(root: root, places: places.places))
        }
        let problems = failures + inputFailures + differences
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
    }

    /// What every example's artifact states, read back fact by fact: a fact a rule does not
    /// look at today (or an example does not trip) is still one the readers must not lose.
    @Test(arguments: rules.descriptions.map(\.id))
    func everyExampleReadsBackAsWritten(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        for example in rule.triggeringExamples + rule.nonTriggeringExamples {
            let text = try example.unmarked.text
            let artifact = try AndroidArtifact(example: text)
            // Without libelf (macOS) no library is read back: those examples are the ELF round
            // trip's to check, on Linux; the rest still are here.
            guard ELFSupport.isBuilt || artifact.libraries.isEmpty else { continue }
            let (read, result) = try ReadBack.read(artifact)
            #expect(result.inputErrors.isEmpty, "\(result.inputErrors.map(\.description)) in:\n\(text)")
            let differences = read.map { ReadBack.differences($0, from: artifact) } ?? ["nothing read"]
            #expect(differences.isEmpty, "\(differences.joined(separator: "\n")) in:\n\(text)")
        }
    }
}

/// The examples' text form: a line it does not read, or a value outside its list, is an error
/// naming the line, so a mistyped example cannot pass by testing something else.
@Suite struct AndroidExampleFormTests {
    @Test(arguments: [
        "knd apk",  // a mistyped keyword
        "kind apkx",  // an unknown artifact kind
        "upload 2026-06-0x",  // not YYYY-MM-DD
        "upload",  // no day
        "file",  // no path
        "manifest AndroidManifest.xml debuggable=yes",  // a flag is true or false
        "manifest AndroidManifest.xml feature=android.hardware.camera",  // an unknown form factor
        "manifest AndroidManifest.xml colour=blue",  // an unknown manifest key
        "manifest lib/AndroidManifest.xml",  // no manifest of an apk lies there
        "manifest AndroidManifest.xml components=widget:.Clock",  // an unknown component kind
        "manifest AndroidManifest.xml components=service",  // a component without a name
        "manifest AndroidManifest.xml components=service:.Sync:fgs=teleport",  // an unknown service type
        "manifest AndroidManifest.xml components=activity:.Main:fgs=camera",  // fgs on an activity
        "manifest AndroidManifest.xml components=receiver:.Boot:public",  // an unknown option
        "manifest AndroidManifest.xml queries=app:com.example",  // an unknown query kind
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
