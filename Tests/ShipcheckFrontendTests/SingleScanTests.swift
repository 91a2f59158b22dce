import Foundation
import SavedQueries
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Synchronization
import Testing

/// `shipcheck audit` lists the tree once and opens each file once, whichever of its checks
/// read the file (issue 16), the artifact readers included (issue 51: the prebuilt Android
/// libraries are the read pass's bytes, not opened again): on a generated app where every check
/// has something to find. A file
/// is opened a second time only when its facts say it may answer a question it was not parsed
/// for (issue 41): it may name a DEBUG-only declaration of another file, or declare the type a
/// pending finding waits on.
@Suite struct SingleScanTests {
    /// An app tree with `count` Swift views cycling through what each check looks at: an
    /// unwrapped preview, a DEBUG-only mock used by release code in the same file and in
    /// another one, a use of a Development Assets type, plain code.
    static func generatedApp(views count: Int) -> GitFixture {
        let app = GitFixture("shipcheck-single-scan")
        app.write(".shipcheck.yml", "flags:\n  debug-only: [DEBUG_MENU]\n")
        app.write(".shipcheck/queries.yml", QueryStoreFormat.render([QueryPresets.named("merge-conflicts")!]))
        app.write(".gitattributes", "*.rst conflict-marker-size=32\n")
        app.write(ExampleProject.path, ExampleProject.withPreviewContent)
        app.write(
            "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme",
            "<Scheme>\n  <ArchiveAction buildConfiguration = \"Release\" revealArchiveInOrganizer = \"YES\">\n  </ArchiveAction>\n</Scheme>\n"
        )
        app.write(
            "Config/Shared.xcconfig", "#include \"Base.xcconfig\"\nDEVELOPMENT_ASSET_PATHS = $(SRCROOT)/App/Fixtures\n")
        app.write("Config/Base.xcconfig", "SWIFT_VERSION = 6.0\n")
        app.write("App/Fixtures/Seed.json", "{}\n")
        app.write("App/Preview Content/PreviewData.swift", "enum PreviewData {\n    static let title = \"Hello\"\n}\n")
        app.write(
            "Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Kit\", targets: [.target(name: \"Kit\", swiftSettings: [.define(\"DEBUG\")])])\n"
        )
        app.write("Docs/Merging.md", "Merging\n=======\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n")
        app.write(
            "Docs/Guide.rst",
            "Guide\n=====\n\n" + String(repeating: "<", count: 32) + " HEAD\nours\n" + String(repeating: "=", count: 32)
                + "\ntheirs\n" + String(repeating: ">", count: 32) + " feature\n")
        for index in 0..<count {
            let name = "View\(index)"
            let text: String
            switch index % 5 {
            case 0: text = "import SwiftUI\nstruct \(name) {}\n#Preview { \(name)() }\n"
            case 1: text = "#if DEBUG\nstruct Mock\(index) {}\n#endif\nstruct \(name) { let mock = Mock\(index)() }\n"
            case 2: text = "struct \(name) { let mock = Mock\(index - 1)() }\n"
            case 3:
                text = "#if DEBUG\n#Preview { \(name)() }\n#endif\nstruct \(name) { let title = PreviewData.title }\n"
            default: text = "struct \(name) { let value = \(index) }\n"
            }
            app.write("App/Views/\(name).swift", text)
        }
        // A finding that waits on another file: `Model` is a class only `Model.swift` says so,
        // and that file has no text the source rules ask for, so the scan does not parse it;
        // the end of the scan opens it again (it mentions `Model`) to confirm the finding.
        app.write(
            "App/Views/Screen.swift",
            "import SwiftUI\nstruct Screen: View {\n    @State private var model: Model\n    init() { _model = State(initialValue: Model()) }\n    var body: some View { Text(\"x\") }\n}\n"
        )
        app.write("App/Model/Model.swift", "final class Model {}\n")
        app.commitAll("generated app")
        return app
    }

    @Test func auditListsTheTreeOnceAndOpensAgainOnlyWhatFactsPointTo() throws {
        let app = Self.generatedApp(views: 60)
        // Prebuilt libraries for two ABIs and more, which the Android check reads.
        let libraries = Repository.path("Tests/Fixtures/android/jniLibs")
        for abi in try FileManager.default.contentsOfDirectory(atPath: libraries) {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(libraries)/\(abi)") {
                let bytes = try #require(FileManager.default.contents(atPath: "\(libraries)/\(abi)/\(name)"))
                _ = app.directory.write("app/src/main/jniLibs/\(abi)/\(name)", bytes: Array(bytes))
            }
        }
        app.commitAll("prebuilt libraries")
        let source = CountingFileSource()
        let outcome = try Frontend.audit(root: app.path, failingSeverity: .error, source: source)
        let report = try #require(outcome.report)
        // Without the ELF reader (a Mac) each library is an error that says so, and nothing else is.
        #expect(
            report.inputErrors.allSatisfy { !TestPlatform.readsELF && $0.message.hasPrefix("ELF support not built") },
            "\(report.inputErrors)")

        // Every check found what the tree holds: so every check read what it needed.
        let found = Set(report.findings.map(\.ruleID))
        for rule in [
            "preview-outside-debug", "dev-asset-outside-debug", "conflict-marker", "saved-query",
            "release-defines-debug", "release-references-debug-only"
        ] + (TestPlatform.readsELF ? ["play-16kb-load-alignment"] : []) {
            #expect(found.contains(rule), "no \(rule) finding")
        }
        #expect(report.findings.filter { $0.ruleID == "release-references-debug-only" }.count == 12 + 12 + 12)

        #expect(source.listings.load(ordering: .relaxed) == 1)
        let listed = app.git("ls-files").stdout.split(separator: "\n").map { app.path + "/" + $0 }
        let opens = source.opens
        #expect(
            report.findings.contains {
                $0.ruleID == "state-built-in-init" && $0.location.path == "App/Views/Screen.swift"
            })
        // Opened again: `Model.swift`, for the pending finding; the views that name a DEBUG-only
        // declaration of another file (`Mock1` from `View2`, `PreviewData` from `View3`), whether
        // the read pass parsed them (`View3` has `#if`) or not. Not the views whose only such name
        // is their own (`View1`), nor the Development Assets file, nor any other file.
        var openedAgain = ["App/Model/Model.swift"]
        for index in 0..<60 where [2, 3].contains(index % 5) { openedAgain.append("App/Views/View\(index).swift") }
        for path in listed {
            let expected = openedAgain.contains(String(path.dropFirst(app.path.count + 1))) ? 2 : 1
            #expect(opens[path] == expected, "\(path) opened \(opens[path] ?? 0) times, not \(expected)")
        }
        #expect(opens.count == listed.count, "opened files the listing does not hold")
    }

    /// The release artifacts the audit is given (build products, outside the listing) are opened
    /// by their readers through the scan's source, each file once: a Mach-O file, a folder
    /// bundle's binary and property lists (the magic is read from the mapping, not by a sniff
    /// first), an `.ipa` (read in place), and a library linked for Android outside any ABI folder
    /// (mapped once, then judged Android's from those bytes, not mapped first to decide).
    @Test func auditOpensEachFileOfItsArtifactsOnce() throws {
        let app = Self.generatedApp(views: 5)
        let products = TemporaryDirectory("shipcheck-single-scan-products")
        let assembler = BundleAssembler(products)
        let plist = "text:" + BundleAssembler.plist(["CFBundleIdentifier": "com.example.app"])
        assembler.folder(
            "App.xcframework",
            files: [
                "Info.plist": plist, "ios-arm64/App.framework/App": "macho/App-ios",
                "ios-arm64/App.framework/Info.plist": plist
            ])
        assembler.folder("staging/Payload/App.app", files: ["App": "macho/App-ios", "Info.plist": plist])
        assembler.zip("staging", to: "App.ipa")
        try FileManager.default.removeItem(atPath: products.path + "/staging")
        let binary = products.write("App", "")
        try FileManager.default.removeItem(atPath: binary)
        try FileManager.default.copyItem(atPath: BundleAssembler.fixture("macho/App-ios"), toPath: binary)

        let loose = try #require(
            try FileManager.default.contentsOfDirectory(atPath: Repository.path("Tests/Fixtures/android/loose")).first {
                $0.hasSuffix(".so")
            })
        try FileManager.default.copyItem(
            atPath: Repository.path("Tests/Fixtures/android/loose/\(loose)"), toPath: products.path + "/" + loose)

        let source = CountingFileSource()
        let artifacts = ["App.xcframework", "App.ipa", "App", loose].map { products.path + "/" + $0 }
        let outcome = try Frontend.audit(
            root: app.path, extraBinaries: artifacts, failingSeverity: .error, source: source)
        let report = try #require(outcome.report)
        #expect(report.checks.contains { $0.name == "binaries" && $0.filesScanned > 0 })
        let files = try FileManager.default.subpathsOfDirectory(atPath: products.path).filter {
            FileKind.of(products.path + "/" + $0) == .regular
        }
        #expect(files.count == 6)
        if TestPlatform.readsELF {
            #expect(
                report.findings.contains {
                    $0.ruleID == "android-text-relocations" && $0.location.path.hasSuffix(loose)
                }, "the loose library was not judged as Android's")
        }
        let opens = source.opens
        for file in files {
            let path = products.path + "/" + file
            #expect(opens[path] == 1, "\(file) opened \(opens[path] ?? 0) times")
        }
        #expect(opens.keys.filter { $0.hasPrefix(products.path) }.count == files.count)
    }

    /// A folder of build products the audit is given is walked, and each of its files opened
    /// once: a file is a binary if the bytes mapped to read it start as one (before, each was
    /// sniffed by a read of its first bytes and the binaries then mapped again). Files that are
    /// no binary are skipped without an error, and a folder with none is still an error.
    @Test func auditWalksAFolderOfProductsOpeningEachFileOnce() throws {
        let app = Self.generatedApp(views: 5)
        let products = TemporaryDirectory("shipcheck-single-scan-walk")
        try FileManager.default.copyItem(
            atPath: BundleAssembler.fixture("macho/App-ios"), toPath: products.path + "/App")
        try FileManager.default.copyItem(
            atPath: Repository.path("Tests/Fixtures/android/loose/libloose-bionic.so"),
            toPath: products.path + "/libloose-bionic.so")
        _ = products.write("notes/README.txt", "build notes\n")
        _ = products.write("empty.bin", "")
        let nothing = TemporaryDirectory("shipcheck-single-scan-walk-none")
        _ = nothing.write("notes.txt", "no binaries here\n")

        let source = CountingFileSource()
        let outcome = try Frontend.audit(
            root: app.path, extraBinaries: [products.path, nothing.path], failingSeverity: .error, source: source)
        let report = try #require(outcome.report)
        // Without the ELF reader (a Mac) the Android library is an error that says so.
        let loose = TestPlatform.readsELF ? [] : [products.path + "/libloose-bionic.so"]
        #expect(
            report.inputErrors.map(\.path) == loose + [nothing.path],
            "\(report.inputErrors.map { "\($0.path): \($0.message)" })")
        #expect(report.findings.contains { $0.location.path == products.path + "/App" })
        if TestPlatform.readsELF {
            #expect(
                report.findings.contains {
                    $0.ruleID == "android-text-relocations" && $0.location.path.hasSuffix("libloose-bionic.so")
                })
        }
        let opens = source.opens
        for file in ["App", "libloose-bionic.so", "notes/README.txt", "empty.bin"] {
            #expect(
                opens[products.path + "/" + file] == 1, "\(file) opened \(opens[products.path + "/" + file] ?? 0) times"
            )
        }
    }
}
