import BinaryInspect
import Foundation
import ReleaseDiff
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The previous-release rules' Apple examples judged as `shipcheck diff` judges two real
/// releases: each side written as the artifact its text describes (`AppleExampleWriter`: an
/// `.ipa` zip, an `.app` or `.xcframework` folder, with binary Info.plists and Mach-O images),
/// both read by the production entry point (`Frontend.diff`), and the rule's findings matched
/// with the markers. Examples that state sizes are the facts-level test's alone.
@Suite struct PreviousReleaseAppleBytesTests {
    static let rules = PreviousReleaseCheck.ownRules(among: RuleRegistry.rules)

    @Test(arguments: rules.descriptions.map(\.id))
    func ruleAgreesWithItsAppleExamplesReadFromBytes(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        var failures: [String] = []
        let (mismatches, judged) = try RuleExampleVerifier.verifySome(rule) { _, text in
            let parts = try ReleasePairExample.Parts(text)
            guard parts.family == "apple", !parts.old.statesSizes, !parts.new.statesSizes else { return nil }
            let old = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-previous")).write(
                example: parts.old.artifactText)
            let new = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-release")).write(
                example: parts.new.artifactText)
            // Named apart from the new release, as releases are, so messages can be seen to name it.
            let previous =
                (old.root as NSString).deletingLastPathComponent + "/Previous."
                + (old.root as NSString).pathExtension
            try FileManager.default.moveItem(atPath: old.root, toPath: previous)
            let outcome = Frontend.diff(
                old: previous, new: new.root, configuration: new.configuration, failingSeverity: .error)
            failures += PreviousReleaseExamples.problems(
                findings: outcome.run.previousReleaseFindings, inputErrors: outcome.run.inputErrors, rule: id, in: text)
            let places = new.places.places.map { place in
                var moved = place
                moved.line += parts.new.firstLine
                return moved
            }
            return RuleExampleVerifier.Scanned(
                outcome.run.previousReleaseFindings, places: ExamplePlaces(root: new.root, places: places))
        }
        if judged == 0 && PreviousReleaseExamples.hasWritable(rule, family: "apple") {
            failures.append("\(id): no Apple example judged")
        }
        failures += mismatches
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Two releases whose only difference is the build number: nothing to report.
    @Test(arguments: ["ipa", "app"])
    func aPairThatOnlyMovesTheBuildNumberIsClean(_ kind: String) throws {
        func release(_ build: Int) -> String {
            let app = kind == "ipa" ? "Payload/App.app" : ""
            let prefix = app.isEmpty ? "" : app + "/"
            return """
                kind \(kind)
                image \(prefix)App arm64 ios 16.0 26.0
                dylib /System/Library/Frameworks/SwiftUI.framework/SwiftUI
                plist \(prefix)Info.plist {CFBundleIdentifier = com.example.app; CFBundleExecutable = App; CFBundleShortVersionString = 2.1; CFBundleVersion = \(build); MinimumOSVersion = 16.0; UIDeviceFamily = (1, 2);}
                """
        }
        let old = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-previous")).write(
            example: release(41))
        let new = try AppleExampleWriter(directory: TemporaryDirectory("shipcheck-release")).write(example: release(42))
        let outcome = Frontend.diff(
            old: old.root, new: new.root, configuration: Configuration(), failingSeverity: .warning)
        #expect(outcome.run.inputErrors.isEmpty, "\(outcome.run.inputErrors.map(\.description))")
        #expect(outcome.run.previousReleaseFindings.isEmpty, "\(outcome.run.previousReleaseFindings.map(\.message))")
        #expect(outcome.run.appeared.isEmpty, "\(outcome.run.appeared.map(\.message))")
        #expect(outcome.run.comparison?.identity.map(\.name) == ["build"])
    }
}
