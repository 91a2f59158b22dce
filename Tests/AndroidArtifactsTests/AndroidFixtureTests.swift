import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The artifacts Tests/Fixtures/android/build.sh builds (README.md there): every planted case is
/// reported once, at its entry, by its rule — the same in an APK, an App Bundle, an AAR and a
/// jniLibs folder, as far as each kind holds it — and the clean builds report nothing but notes.
@Suite(.needsELF) struct AndroidFixtureTests {
    /// What the planted libraries plant, by path inside the ABI folders.
    static let plantedLibraries: [(String, String)] = [
        ("arm64-v8a/libapp.so", "play-16kb-load-alignment"),
        ("arm64-v8a/libapp.so", "binary-preview-conformance"),
        ("arm64-v8a/libapp.so", "binary-mock-symbol"),
        ("arm64-v8a/libloader.so", "android-needed-path"),
        ("arm64-v8a/libpacked.so", "android-elf-refused"),
        ("armeabi-v7a/libvendor.so", "play-64-bit-required"),
        ("x86/libcodec.so", "android-text-relocations")
    ]

    /// What an app (APK or bundle) plants beside them: the manifest, a library it forgot to
    /// package for one ABI, debug information.
    static func plantedApp(manifest: String, libraries: (String) -> String) -> [(String, String)] {
        plantedLibraries.map { (libraries($0.0), $0.1) } + [
            (libraries("x86_64/libapp.so"), "android-needed-library-missing"),
            (libraries("arm64-v8a/libapp.so"), "android-debug-info"),
            (manifest, "play-debuggable"), (manifest, "play-test-only"), (manifest, "play-target-sdk-too-old"),
            (manifest, "play-version-code")
        ]
    }

    /// `arm64-v8a/libapp.so` in an APK set: `splits/base-arm64_v8a.apk/lib/arm64-v8a/libapp.so`.
    static func inConfigurationSplit(_ library: String) -> String {
        let abi = library.split(separator: "/")[0]
        return "splits/base-\(abi.replacingOccurrences(of: "-", with: "_")).apk/lib/\(library)"
    }

    static let cases: [(artifact: String, expected: [(String, String)])] = [
        (
            "Planted.apk",
            plantedApp(manifest: "AndroidManifest.xml", libraries: { "lib/\($0)" }) + [
                ("lib/arm64-v8a/libapp.so", "play-16kb-zip-alignment")
            ]
        ),
        (
            "Planted.aab",
            plantedApp(manifest: "base/manifest/AndroidManifest.xml", libraries: { "base/lib/\($0)" }) + [
                ("BundleConfig.pb", "play-16kb-zip-alignment")
            ]
        ),
        (
            "Planted.apks",
            plantedApp(manifest: "splits/base-master.apk/AndroidManifest.xml", libraries: inConfigurationSplit) + [
                ("splits/base-arm64_v8a.apk/lib/arm64-v8a/libapp.so", "play-16kb-zip-alignment")
            ]
        ),
        ("Planted.aar", plantedLibraries.map { ("jni/\($0.0)", $0.1) }),
        ("jniLibs", plantedLibraries),
        ("Clean.apk", []), ("Clean.aab", []), ("Legacy.apk", []), ("KotlinOnly.apk", [])
    ]

    @Test(arguments: cases.map(\.artifact))
    func reportsExactlyWhatIsPlanted(_ artifact: String) throws {
        let expected = try #require(Self.cases.first { $0.artifact == artifact }).expected
        let path = Repository.path("Tests/Fixtures/android/\(artifact)")
        let report = try #require(
            try Frontend.binary(paths: [path], configuration: Configuration(), failingSeverity: .error).report)
        #expect(report.inputErrors.isEmpty, "\(report.inputErrors)")
        let reported = report.findings.filter { $0.severity != .note }.map { finding in
            "\(finding.location.path.dropFirst(path.count + 1)) \(finding.ruleID)"
        }.sorted()
        #expect(reported == expected.map { "\($0.0) \($0.1)" }.sorted())
    }

    /// A library outside an ABI folder without the NDK's note is still Android's when it names
    /// bionic's unversioned libraries; `libc.so` alone (musl's name too) is no sign of it.
    @Test(arguments: [
        ("libloose-bionic.so", ["android-text-relocations"]), ("libloose-libc-only.so", [])
    ])
    func aLooseLibraryLinkedAgainstBionicIsJudgedAsAndroids(_ name: String, _ expected: [String]) throws {
        let path = Repository.path("Tests/Fixtures/android/loose/\(name)")
        let report = try #require(
            try Frontend.binary(paths: [path], configuration: Configuration(), failingSeverity: .error).report)
        #expect(report.inputErrors.isEmpty, "\(report.inputErrors)")
        #expect(report.findings.filter { $0.severity != .note }.map(\.ruleID) == expected)
    }

    /// An ABI folder given itself, or a plain folder holding libraries linked for Android, is
    /// judged as each of its libraries is when named (before, its libraries were read as plain
    /// ELF files and every Android rule passed: minicap's `libs/android-24/arm64-v8a`).
    @Test(arguments: ["jniLibs/arm64-v8a", "loose"])
    func aFolderOfAndroidLibrariesIsJudgedAsItsLibrariesAre(_ folder: String) throws {
        let path = Repository.path("Tests/Fixtures/android/\(folder)")
        func judged(_ paths: [String]) throws -> [String] {
            let report = try #require(
                try Frontend.binary(paths: paths, configuration: Configuration(), failingSeverity: .error).report)
            #expect(report.inputErrors.isEmpty, "\(report.inputErrors)")
            return report.findings.filter { $0.severity != .note }.map { "\($0.location.path) \($0.ruleID)" }.sorted()
        }
        let libraries = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".so") }
        let byName = try judged(libraries.map { "\(path)/\($0)" })
        #expect(
            byName.contains {
                $0.hasSuffix(folder == "loose" ? "android-text-relocations" : "play-16kb-load-alignment")
            })
        #expect(try judged([path]) == byName)
    }

    /// The messages name the ABI and the library, as the issue asks of the loader rules.
    @Test func theMissingRuntimeNamesTheABIAndTheLibraryThatNeedsIt() throws {
        let path = Repository.path("Tests/Fixtures/android/Planted.apk")
        let report = try #require(
            try Frontend.binary(paths: [path], configuration: Configuration(), failingSeverity: .error).report)
        let missing = try #require(report.findings.first { $0.ruleID == "android-needed-library-missing" })
        #expect(
            missing.message.hasPrefix(
                "lib/x86_64/libapp.so (x86_64) needs libswiftCore.so (not packaged for x86_64, packaged only for arm64-v8a)"
            ))
        #expect(missing.message.hasSuffix("dlopen failed: library \"libswiftCore.so\" not found"))
    }
}

/// `shipcheck audit` finds the prebuilt libraries a repository keeps for packaging in its
/// listing and checks them as a library folder, with paths relative to the audited root.
@Suite(.needsELF) struct AuditJniLibsTests {
    @Test func theAuditChecksTheRepositorysJniLibs() throws {
        let tree = TemporaryDirectory("shipcheck-audit-jnilibs")
        let fixture = Repository.path("Tests/Fixtures/android/jniLibs")
        for abi in try FileManager.default.contentsOfDirectory(atPath: fixture) {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(fixture)/\(abi)") {
                let bytes = try #require(FileManager.default.contents(atPath: "\(fixture)/\(abi)/\(name)"))
                _ = tree.write("app/src/main/jniLibs/\(abi)/\(name)", bytes: Array(bytes))
            }
        }
        _ = tree.write("app/src/main/AndroidManifest.xml", "<manifest package=\"com.example\"/>\n")
        let report = try #require(try Frontend.audit(root: tree.path, failingSeverity: .error).report)
        #expect(report.inputErrors.isEmpty, "\(report.inputErrors)")
        let reported = report.findings.filter { $0.severity != .note }.map { "\($0.location.path) \($0.ruleID)" }
            .sorted()
        let expected = AndroidFixtureTests.plantedLibraries.map { "app/src/main/jniLibs/\($0.0) \($0.1)" }.sorted()
        #expect(reported == expected)
        #expect(report.checks.contains { $0.name == "android libraries" && $0.errors == 6 })
    }
}
