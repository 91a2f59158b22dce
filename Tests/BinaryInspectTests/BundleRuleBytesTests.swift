import BinaryInspect
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The bundle rules' examples as real input: each example is written as the artifact it
/// describes (`AppleExampleWriter`), read back by the production readers (the bundle walk, or
/// `run(paths:)` for a single binary) and judged; findings must match the `↓` markers at the
/// places the lines declare. A reader that drops or misreads a fact an example relies on fails
/// its rule here, where the text-form tests (`BinaryRuleExampleTests`) never read a byte.
@Suite struct BundleRuleBytesTests {
    static let bundleRules = RuleRegistry.rules.filter(BinaryInspector.isBundleRule).descriptions

    @Test(arguments: bundleRules)
    func ruleAgreesWithItsExamplesWrittenAsArtifacts(_ described: RuleDescription) {
        let rule = described.examples(where: \.isArtifactExample)
        var problems: [String] = []
        let failures = RuleExampleVerifier.verifyWithPlaces(rule) { _, text in
            do {
                let written = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-bytes")).write(
                    example: text)
                let (findings, errors) = ExampleArtifactReader.check(written)
                if !errors.isEmpty { problems.append("\(rule.id): input errors \(errors) in:\n\(text)") }
                return RuleExampleVerifier.Scanned(findings, places: written.places)
            } catch {
                problems.append("\(rule.id): \(error) in:\n\(text)")
                return RuleExampleVerifier.Scanned([])
            }
        }
        #expect((failures + problems).isEmpty, "\((failures + problems).joined(separator: "\n"))")
    }

    /// Every example text of the bundle rules, triggering or not, unmarked (one whose markers do
    /// not parse stays as written, and fails).
    static let exampleTexts: [String] = bundleRules.flatMap { rule in
        let artifact = rule.examples(where: \.isArtifactExample)
        return (artifact.triggeringExamples + artifact.nonTriggeringExamples).map { (try? $0.unmarked.text) ?? $0.text }
    }

    /// Model → bytes → readers → model: every fact the text form sets comes back, so a decoder
    /// that drops or misreads one fails by the fact's name.
    @Test(arguments: exampleTexts + [BundleRoundTripExamples.everyKeyword, BundleRoundTripExamples.universalAndArchive])
    func exampleModelSurvivesTheBytes(_ text: String) throws {
        let written = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-bytes")).write(example: text)
        let (read, errors) = try ExampleArtifactReader.read(written)
        #expect(errors.isEmpty, "\(errors)")
        let model = try #require(read)
        let differences = BundleModelComparison.differences(read: model, written: written.model)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}

/// Examples using every keyword and option of the text form, so the round trip covers what no
/// rule's example happens to use.
enum BundleRoundTripExamples {
    static let everyKeyword = """
        kind xcarchive
        distribution ad-hoc
        upload 2026-06-01
        file Products/Applications/App.app/Assets.car
        plist Products/Applications/App.app/Info.plist {CFBundleIdentifier = com.example.app; CFBundleExecutable = App; CFBundleVersion = 7;}
        plist Products/Applications/App.app/PrivacyInfo.xcprivacy {NSPrivacyTracking = false;}
        profile Products/Applications/App.app/embedded.mobileprovision ad-hoc application-identifier=T.com.example.app
        entitlements Products/Applications/App.app/App get-task-allow=false application-identifier=T.com.example.app
        image Products/Applications/App.app/App arm64 ios 16.0 26.0 uuid=4C4C4408-5555-3144-A193-1E219F242530
        dylib /usr/lib/libSystem.B.dylib
        weak-dylib @rpath/XCTest.framework/XCTest
        reexport-dylib @rpath/Core.framework/Core
        lazy-dylib /usr/lib/libz.1.dylib
        upward-dylib @rpath/Up.framework/Up
        import stat OBJC_CLASS_$_NSUserDefaults __swift_FORCE_LOAD_$_XCTestSwiftSupport
        selector systemUptime activeInputModes
        module App XCTest
        objc-class AppDelegate MockView
        segment __TEXT 65536
        section __TEXT,__text 60000
        section __LLVM,__bundle 16
        image Products/Applications/App.app/Frameworks/Core.framework/Core arm64 ios 15.0.1 26.0 version-min unsigned
        image Products/Applications/App.app/PlugIns/Loader.bundle/Loader x86_64 macos 13.0 26.0 type=bundle
        dsym dSYMs/App.app.dSYM/Contents/Resources/DWARF/App arm64 4C4C4408-5555-3144-A193-1E219F242530
        """

    /// A universal file (a 64-bit and a 32-bit slice), and a universal static archive.
    static let universalAndArchive = """
        kind xcframework
        image ios-arm64_x86_64-simulator/SDK.framework/SDK arm64 ios-simulator 16.0 26.0
        import objc_msgSend
        image ios-arm64_x86_64-simulator/SDK.framework/SDK i386 ios-simulator 9.0 16.0 version-min
        image ios-arm64/libSDK.a arm64 ios 16.0 26.0 type=object member=SDK.o
        import OBJC_CLASS_$_NSObject
        module SDK
        objc-class SDKView
        image ios-arm64/libSDK.a arm64 ios 16.0 26.0 type=object member=Helpers-With-A-Long-Name.o
        image ios-arm64/libSDK.a x86_64 ios-simulator 16.0 26.0 type=object member=SDK.o
        dsym ios-arm64/dSYMs/SDK.framework.dSYM/Contents/Resources/DWARF/SDK arm64 4C4C4408-5555-3144-A193-1E219F242531 x86_64 4C4C4408-5555-3144-A193-1E219F242532
        """
}
