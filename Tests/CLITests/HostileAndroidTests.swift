import Foundation
import ShipcheckTestSupport
import Testing
import ZIPFoundation

/// Damaged Android artifacts: each problem is one error line naming the artifact and the entry,
/// the rest of the artifact (and the other inputs) is still checked, exit 2.
extension HostileInputTests {
    /// A zip of `entries` (path → bytes), written with ZIPFoundation.
    private static func zip(_ entries: [(String, [UInt8])], to path: String) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, bytes) in entries {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate
            ) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
    }

    private static func entry(_ name: String, of fixture: String) throws -> [UInt8] {
        let archive = try Archive(
            url: URL(fileURLWithPath: Repository.path("Tests/Fixtures/android/\(fixture)")), accessMode: .read)
        var bytes: [UInt8] = []
        _ = try archive.extract(try #require(archive[name])) { bytes += $0 }
        return bytes
    }

    @Test(.needsELF) func hostileAndroidArtifacts() throws {
        let directory = TemporaryDirectory("shipcheck-hostile-android")
        let manifest = try Self.entry("AndroidManifest.xml", of: "Clean.apk")
        let library = try Self.entry("lib/arm64-v8a/libapp.so", of: "Clean.apk")
        let runtime = try Self.entry("lib/arm64-v8a/libswiftCore.so", of: "Clean.apk")
        let damaged = directory.path + "/Damaged.apk"
        try Self.zip(
            [
                ("AndroidManifest.xml", Array(manifest.prefix(manifest.count / 2))),
                ("lib/arm64-v8a/libapp.so", library), ("lib/arm64-v8a/libswiftCore.so", runtime),
                ("lib/arm64-v8a/libjunk.so", Array("not a library".utf8)),
                ("lib/x86_64/libcut.so", Array(library.prefix(40)))
            ], to: damaged)
        let noManifest = directory.path + "/NoManifest.aab"
        try Self.zip([("base/lib/arm64-v8a/libapp.so", library)], to: noManifest)
        let badConfig = directory.path + "/BadConfig.aab"
        try Self.zip(
            [
                ("BundleConfig.pb", [0x0A, 0xFF, 0xFF, 0xFF]),
                (
                    "base/manifest/AndroidManifest.xml",
                    try Self.entry("base/manifest/AndroidManifest.xml", of: "Clean.aab")
                )
            ], to: badConfig)
        let notZip = directory.write("NotZip.apk", "PK but not a zip")
        let emptyFolder = directory.path + "/jniLibs"
        try FileManager.default.createDirectory(atPath: emptyFolder + "/arm64-v8a", withIntermediateDirectories: true)
        let clean = Repository.path("Tests/Fixtures/android/Clean.apk")

        let run = HostileRunner.shipcheck(
            ["binary", damaged, noManifest, badConfig, notZip, emptyFolder, clean], in: directory.path)
        expectSurvived(run, "binary on hostile Android artifacts")
        #expect(run.exitStatus == 2)
        let expected = [
            "\(damaged)/AndroidManifest.xml: error: unreadable AndroidManifest.xml:",
            "\(damaged)/lib/arm64-v8a/libjunk.so: error: corrupt ELF file: not an ELF object",
            "\(damaged)/lib/x86_64/libcut.so: error: corrupt ELF file:",
            "\(noManifest): error: no module manifest (base/manifest/AndroidManifest.xml): not an App Bundle, nothing checked",
            "\(badConfig)/BundleConfig.pb: error: not a bundletool BundleConfig",
            "\(notZip): error: not a readable zip archive",
            "\(emptyFolder): error: no native library in an ABI folder"
        ]
        for line in expected {
            #expect(run.errorLines.contains { $0.contains(line) }, "no line '\(line)' in\n\(run.stderr)")
        }
        #expect(run.errorLines.count == expected.count, "\(run.errorLines)")
        // The readable libraries were still checked (their build facts are the notes): the
        // damaged APK's and the clean APK's report nothing else, while the bundle without a
        // manifest still has its library judged (it needs a runtime the bundle lacks).
        #expect(run.stderr.contains("1 error, 0 warnings, 16 notes, 7 inputs not processed"), "\(run.stderr)")
        let findings = run.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }
        #expect(findings.count == 1 && findings[0].hasPrefix("\(noManifest)/base/lib/arm64-v8a/libapp.so: error:"))
        #expect(run.stdout.contains("\(damaged)/lib/arm64-v8a/libswiftCore.so"))
    }
}
