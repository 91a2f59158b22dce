import Foundation
import ShipcheckTestSupport
import Testing

/// Damaged bundles and archives: each problem is one error line naming the bundle and the entry
/// inside it, the rest of the bundle (and the other inputs) is still checked, exit 2 — for
/// `binary` and `audit --binary` alike.
extension HostileInputTests {
    @Test func hostileBundlesAndZips() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-hostile-bundle"))
        let app = [
            "App": "macho/App-ios", "XX/x": "text:escape", "big.bin": "text:" + String(repeating: "b", count: 4096),
            "Info.plist": "text:<plist version=\"1.0\"><dict/></plist>"
        ]
        // An entry named ../x, and one declaring 2 GiB out of a few compressed bytes.
        tree.folder("escape/Payload/A.app", files: app)
        let escape = tree.zip("escape", to: "Escape.ipa")
        BundleAssembler.replacing("XX/x", with: "../x", in: escape)
        BundleAssembler.declareSize(0x7FFF_FFF0, ofEntry: "Payload/A.app/big.bin", in: escape)
        // A central directory that breaks off.
        tree.folder("broken/Payload/B.app", files: ["App": "macho/App-ios", "one.txt": "text:1", "two.txt": "text:2"])
        let broken = tree.zip("broken", to: "Broken.ipa")
        BundleAssembler.breakCentralDirectory(at: 2, in: broken)
        let notZip = tree.directory.write("NotZip.ipa", "PK but not a zip")
        // A folder bundle with a symlink loop, an Info.plist that is not a plist and a profile
        // that is not CMS, beside an executable that is still audited.
        let loop = tree.folder(
            "Loop.app",
            files: [
                "App": "macho/App-ios", "Info.plist": "text:{ not a plist",
                "embedded.mobileprovision": "text:<?xml version=\"1.0\"?><plist><dict/></plist>"
            ],
            symlinks: ["a": "b", "b": "a"])
        let expected = [
            "\(escape)/Payload/A.app/../x: error: entry path leaves the archive ('..'): refused, not read",
            "\(escape)/Payload/A.app/big.bin: error: declares 2147483632 bytes from",
            "\(broken): error: broken central directory:",
            // What is left of it holds no app: nothing was checked, which is an error of its own.
            "\(broken): error: no Payload/*.app inside: nothing to check",
            "\(notZip): error: not a readable zip archive",
            "\(loop)/a: error: symlink loop; not scanned",
            "\(loop)/b: error: symlink loop; not scanned",
            "\(loop)/Info.plist: error: Info.plist is not a property list",
            "\(loop)/embedded.mobileprovision: error: not a CMS-signed provisioning profile"
        ]
        let project = tree.directory.write("project/README.md", "nothing to audit here")
        let inputs = [escape, broken, notZip, loop]
        for command in [
            ["binary"] + inputs,
            ["audit", (project as NSString).deletingLastPathComponent] + inputs.flatMap { ["--binary", $0] }
        ] {
            let run = HostileRunner.shipcheck(command, in: tree.directory.path)
            expectSurvived(run, "\(command[0]) on hostile bundles")
            #expect(run.exitStatus == 2)
            for line in expected {
                #expect(
                    run.errorLines.contains { $0.contains(line) }, "\(command[0]): no line '\(line)' in\n\(run.stderr)")
            }
            #expect(
                run.errorLines.filter { $0.contains(tree.directory.path) }.count == expected.count, "\(run.errorLines)")
            // The intact executables inside the damaged bundles are still audited.
            for intact in ["\(escape)/Payload/A.app/App", "\(loop)/App"] {
                #expect(
                    run.stdout.contains(intact) && run.stdout.contains("AppLib.PublicCard_Previews"),
                    "\(command[0]): \(intact) not audited")
            }
            #expect(!FileManager.default.fileExists(atPath: tree.directory.path + "/x"), "nothing is extracted")
        }
    }
}

extension HostileInputTests {
    /// Damaged Info.plists and privacy manifests inside an app, through the real binary: a binary
    /// plist cut short is one error naming it (exit 2) and the rest of the app is still checked;
    /// keys of the wrong type and manifests that are not property lists crash nothing.
    @Test func hostileInfoPlistsAndManifests() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-hostile-plist"))
        let regressions = HostileFuzzRegressionTests.folder + "/bundle/"
        let binary = try #require(FileManager.default.contents(atPath: regressions + "info-binary.plist"))
        let app = tree.folder(
            "Damaged.app",
            files: [
                "Damaged": "preflight/Store-ios",
                "Frameworks/Kit.framework/Kit": "preflight/Kit-ios",
                "PlugIns/Widget.appex/Widget": "preflight/Store-ios",
                "PrivacyInfo.xcprivacy": "text:{ not a plist"
            ])
        tree.directory.write("Damaged.app/Info.plist", bytes: Array(binary.prefix(binary.count - 20)))
        tree.directory.write(
            "Damaged.app/Frameworks/Kit.framework/Info.plist",
            bytes: Array(try #require(FileManager.default.contents(atPath: regressions + "info-wrong-types.plist"))))
        tree.directory.write(
            "Damaged.app/PlugIns/Widget.appex/PrivacyInfo.xcprivacy",
            bytes: Array(
                try #require(FileManager.default.contents(atPath: regressions + "manifest-wrong-types.xcprivacy"))))
        tree.directory.write(
            "Damaged.app/PlugIns/Widget.appex/Info.plist",
            bytes: Array(try #require(FileManager.default.contents(atPath: regressions + "info-cyclic-binary.plist"))))
        let run = HostileRunner.shipcheck(["binary", app], in: tree.directory.path)
        expectSurvived(run, "binary on damaged Info.plists and manifests")
        #expect(run.exitStatus == 2)
        let errors = run.errorLines.map { String($0) }.sorted()
        #expect(errors.count == 2, "\(run.stderr)")
        #expect(
            errors.first?.hasPrefix(
                "shipcheck: \(app)/Info.plist: error: Info.plist is not a property list: the binary form has a damaged trailer"
            ) == true)
        #expect(
            errors.last
                == "shipcheck: \(app)/PlugIns/Widget.appex/Info.plist: error: Info.plist is not a property list: the binary form has an object that contains itself"
        )
        #expect(
            run.stdout.contains("\(app)/Frameworks/Kit.framework/Kit:LC_UUID"), "the rest of the app is still checked")
    }
}
