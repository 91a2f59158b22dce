import Foundation
import ShipcheckTestSupport
import Testing

/// Damaged privacy manifests and Info.plists inside an app and an .ipa: a manifest that crashes
/// Foundation's binary reader (a set object), one cut short, an empty one, a binary Info.plist cut
/// short. Nothing crashes; each manifest is a preflight-privacy-manifest-invalid finding naming
/// the file, the Info.plist an input error naming it, the rest of the app is still checked.
extension HostileInputTests {
    @Test func damagedPrivacyManifestsAndInfoPlists() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-hostile-privacy"))
        let info = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleExecutable": "Kit", "CFBundleIdentifier": "com.example.kit"],
            format: .binary, options: 0)
        let files = [
            "Store": "preflight/Store-ios",
            "PrivacyInfo.xcprivacy": "fuzz-regressions/bundle/binary-plist-set-object.bin",
            "Frameworks/Kit.framework/Kit": "preflight/Kit-ios",
            "Frameworks/Kit.framework/PrivacyInfo.xcprivacy":
                "text:<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>NSPrivacyAccessedAPITypes",
            "Frameworks/Kit.framework/Kit_Kit.bundle/PrivacyInfo.xcprivacy": "text:"
        ]
        for folder in ["Store.app", "export/Payload/Store.app"] {
            tree.folder(folder, files: files)
            tree.directory.write("\(folder)/Frameworks/Kit.framework/Info.plist", bytes: Array(info.dropLast(9)))
        }
        let app = "\(tree.directory.path)/Store.app"
        let ipa = tree.zip("export", to: "Store.ipa")
        for (artifact, root) in [(app, app), (ipa, "\(ipa)/Payload/Store.app")] {
            let run = HostileRunner.shipcheck(["binary", "--no-color", artifact], in: tree.directory.path)
            expectSurvived(run, "binary on damaged manifests")
            #expect(run.exitStatus == 2, "the damaged Info.plist is an input error")
            for manifest in [
                "PrivacyInfo.xcprivacy", "Frameworks/Kit.framework/PrivacyInfo.xcprivacy",
                "Frameworks/Kit.framework/Kit_Kit.bundle/PrivacyInfo.xcprivacy"
            ] {
                #expect(
                    run.stdout.contains("\(root)/\(manifest): error: ")
                        && run.stdout.contains("not a property list (XML or binary)"),
                    "\(manifest) not reported in\n\(run.stdout)")
            }
            #expect(
                run.errorLines.contains { $0.contains("\(root)/Frameworks/Kit.framework/Info.plist") }, "\(run.stderr)")
            // Store-ios's APIs are still judged: no readable manifest declares them.
            #expect(
                run.stdout.contains("\(root)/Store: error: ") && run.stdout.contains("[preflight-required-reason-api]"))
        }
    }
}
