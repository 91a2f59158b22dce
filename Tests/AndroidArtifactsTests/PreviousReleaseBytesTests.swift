import AndroidArtifacts
import BinaryInspect
import ReleaseDiff
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The previous-release rules' Android examples judged as `shipcheck diff` judges two real
/// releases: each side written as the artifact its text describes (`AndroidExampleWriter`: APKs,
/// App Bundles, AARs with binary, protobuf or text manifests and ELF libraries), both read by the
/// production entry point (`Frontend.diff`), and the rule's findings matched with the markers.
/// Examples that state sizes are the facts-level test's alone (a written file has its own size).
@Suite struct PreviousReleaseBytesTests {
    static let rules = PreviousReleaseCheck.ownRules(among: RuleRegistry.rules)

    @Test(.needsELF, arguments: rules.descriptions.map(\.id))
    func ruleAgreesWithItsAndroidExamplesReadFromBytes(_ id: String) throws {
        let rule = try #require(RuleRegistry.descriptions.first { $0.id == id })
        var failures: [String] = []
        let (mismatches, judged) = try RuleExampleVerifier.verifySome(rule) { _, text in
            let parts = try ReleasePairExample.Parts(text)
            guard parts.family == "android", !parts.old.statesSizes, !parts.new.statesSizes else { return nil }
            let (old, _) = try Self.write(parts.old, as: "Previous")
            let (new, places) = try Self.write(parts.new, as: "Example")
            let outcome = Frontend.diff(
                old: old.path, new: new.path, configuration: Configuration(), failingSeverity: .error)
            failures += PreviousReleaseExamples.problems(
                findings: outcome.run.previousReleaseFindings, inputErrors: outcome.run.inputErrors, rule: id, in: text)
            return RuleExampleVerifier.Scanned(outcome.run.previousReleaseFindings, places: places)
        }
        // A rule about Apple artifacts alone (or judged on stated sizes) has no Android example to write.
        if judged == 0 && PreviousReleaseExamples.hasWritable(rule, family: "android") {
            failures.append("\(id): no Android example judged")
        }
        failures += mismatches
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Two releases whose only difference is the versionCode: nothing to report.
    @Test(.needsELF, arguments: [AndroidArtifactKind.apk, .aab, .aar])
    func aPairThatOnlyMovesTheBuildNumberIsClean(_ kind: AndroidArtifactKind) throws {
        func release(_ code: Int) -> ReleasePairExample.Parts.Side {
            let manifest = kind == .aab ? "base/manifest/AndroidManifest.xml" : "AndroidManifest.xml"
            let library = kind == .aab ? "base/lib" : kind == .aar ? "jni" : "lib"
            return ReleasePairExample.Parts.Side(
                lines: [
                    "kind \(kind.rawValue)",
                    "manifest \(manifest) package=com.example versionCode=\(code) versionName=1.\(code) minSdk=24 targetSdk=36",
                    "lib \(library)/arm64-v8a/libapp.so needs=liblog.so"
                ], firstLine: 0)
        }
        let (old, _) = try Self.write(release(41), as: "Previous")
        let (new, _) = try Self.write(release(42), as: "Example")
        let outcome = Frontend.diff(
            old: old.path, new: new.path, configuration: Configuration(), failingSeverity: .warning)
        #expect(outcome.run.inputErrors.isEmpty)
        #expect(outcome.run.previousReleaseFindings.isEmpty, "\(outcome.run.previousReleaseFindings.map(\.message))")
        #expect(outcome.run.appeared.isEmpty, "\(outcome.run.appeared.map(\.message))")
        #expect(outcome.report.exitCode == 0)
        #expect(Set(outcome.run.comparison?.identity.map(\.name) ?? []) == ["version", "build"])
    }

    /// One side written where the test can read it: the artifact's path, and the places its
    /// lines declare under that path.
    static func write(_ side: ReleasePairExample.Parts.Side, as name: String) throws -> (
        written: (directory: TemporaryDirectory, path: String), places: ExamplePlaces
    ) {
        var (artifact, places) = try AndroidArtifact.example(side.artifactText)
        artifact.root = name + "." + (artifact.kind.isZip ? artifact.kind.rawValue : "so")
        let directory = TemporaryDirectory("shipcheck-previous-release")
        let root = try AndroidExampleWriter.write(artifact, into: directory)
        let moved = places.places.map { place in
            var moved = place
            moved.line += side.firstLine
            return moved
        }
        return ((directory, root), ExamplePlaces(root: root, places: moved))
    }
}
