import Foundation
import ShipcheckTestSupport
import Testing

/// The real binary on assembled bundles: `binary` and `audit --binary` agree, every format
/// names the entry inside the bundle, the configuration's `bundle:` section is read.
@Suite struct BundleCommandTests {
    /// A Debug-built app with a framework, zipped as an .ipa, and a release one beside it.
    static func assemble(_ tree: BundleAssembler) -> (debug: String, release: String) {
        tree.folder(
            "debug/Payload/App.app",
            files: [
                "App": "bundle/App-ios-dev-signed", "App.debug.dylib": "macho/libClean.dylib",
                "embedded.mobileprovision": "bundle/dev.mobileprovision",
                "Frameworks/Clean.framework/Clean": "bundle/Clean-store-signed", "mock_feed.json": "text:[]"
            ])
        tree.folder(
            "release/Payload/App.app",
            files: [
                "App": "bundle/Clean-store-signed", "embedded.mobileprovision": "bundle/store.mobileprovision",
                "Info.plist": "text:"
                    + BundleAssembler.plist([
                        "CFBundleExecutable": "App", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"
                    ])
            ])
        return (tree.zip("debug", to: "Debug.ipa"), tree.zip("release", to: "Release.ipa"))
    }

    static let bundleRules = [
        "bundle-debug-dylib", "bundle-get-task-allow", "bundle-development-push", "bundle-development-profile",
        "bundle-test-resource"
    ]

    @Test func binaryAndAuditReportTheSameBundleFindings() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-bundle"))
        let (debug, release) = Self.assemble(tree)
        let project = tree.directory.write("project/README.md", "no sources") as NSString
        let binary = CommandRunner.shipcheck(["binary", "--format", "json", debug])
        let audit = CommandRunner.shipcheck([
            "audit", project.deletingLastPathComponent, "--format", "json", "--binary", debug
        ])
        #expect(binary.status == 1 && audit.status == 1, "\(binary.stderr)\(audit.stderr)")
        func bundleFindings(_ json: String) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let findings = object?["findings"] as? [[String: Any]] ?? []
            return findings.compactMap { finding in
                guard let rule = finding["ruleID"] as? String, rule.hasPrefix("bundle-") else { return nil }
                return "\(rule) \(finding["path"] as? String ?? "")"
            }.sorted()
        }
        let expected = [
            "bundle-debug-dylib \(debug)/Payload/App.app/App.debug.dylib",
            "bundle-development-profile \(debug)/Payload/App.app/embedded.mobileprovision",
            "bundle-development-push \(debug)/Payload/App.app/App",
            "bundle-development-push \(debug)/Payload/App.app/embedded.mobileprovision",
            "bundle-get-task-allow \(debug)/Payload/App.app/App",
            "bundle-get-task-allow \(debug)/Payload/App.app/embedded.mobileprovision",
            "bundle-test-resource \(debug)/Payload/App.app/mock_feed.json"
        ]
        #expect(try bundleFindings(binary.stdout) == expected)
        #expect(try bundleFindings(audit.stdout) == expected)
        let clean = CommandRunner.shipcheck(["binary", release])
        #expect(clean.status == 0, "\(clean.stdout)")
    }

    @Test func sarifListsTheBundleRulesAndTextNamesTheEntry() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-bundle"))
        let (debug, _) = Self.assemble(tree)
        let sarif = CommandRunner.shipcheck(["binary", "--format", "sarif", debug])
        for rule in Self.bundleRules { #expect(sarif.stdout.contains("\"\(rule)\""), "SARIF lacks \(rule)") }
        let text = CommandRunner.shipcheck(["binary", "--no-color", debug])
        #expect(text.stdout.contains("\(debug)/Payload/App.app/App.debug.dylib: error: App.debug.dylib ships"))
    }

    @Test func configurationSaysHowTheBundleShipsAndRejectsUnknownMethods() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-bundle"))
        let (debug, _) = Self.assemble(tree)
        let config = tree.directory.write(
            "dev.yml",
            "bundle:\n  distribution: development\nrules:\n  bundle-debug-dylib: off\n  bundle-test-resource: off\n")
        let development = CommandRunner.shipcheck(["binary", "--config", config, "--format", "json", debug])
        #expect(development.stdout.contains("\"ruleID\" : \"binary-preview-conformance\""), "the leak rules still run")
        for rule in Self.bundleRules {
            #expect(
                !development.stdout.contains("\"ruleID\" : \"\(rule)\""),
                "\(rule): turned off, or not applied to a development build")
        }
        let bad = tree.directory.write("bad.yml", "bundle:\n  distribution: testflight\n")
        let refused = CommandRunner.shipcheck(["binary", "--config", bad, debug])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains(
                "bad.yml:2: error: 'bundle.distribution' must be one of app-store, app-store-connect, ad-hoc, release-testing, development, debugging, enterprise, developer-id"
            ))
    }
}

/// The pre-flight rules through the real binary: every format carries their findings and ITMS
/// codes, and an .ipa with nothing to check exits 2 naming it.
@Suite struct PreflightCommandTests {
    static func storeIPA(_ tree: BundleAssembler) -> String {
        tree.folder(
            "store/Payload/Store.app",
            files: [
                "Store": "preflight/Store-ios", "Frameworks/Sim.framework/Sim": "preflight/Sim-fat",
                "PrivacyInfo.xcprivacy": BundleAssembler.storeManifest,
                "Info.plist": "text:"
                    + BundleAssembler.plist([
                        "CFBundleExecutable": "Store", "CFBundleShortVersionString": "1.0",
                        "CFBundleVersion": "1", "MinimumOSVersion": "16.0"
                    ]),
                "Frameworks/Sim.framework/Info.plist": "text:"
                    + BundleAssembler.plist([
                        "CFBundleExecutable": "Sim", "CFBundleShortVersionString": "1.0",
                        "CFBundleVersion": "1", "MinimumOSVersion": "16.0"
                    ])
            ])
        return tree.zip("store", to: "Store.ipa")
    }

    @Test(arguments: ["text", "json", "sarif", "junit", "github", "gitlab"])
    func everyFormatReportsThePreflightFinding(_ format: String) {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-preflight"))
        let ipa = Self.storeIPA(tree)
        let result = CommandRunner.shipcheck(["binary", "--no-color", "--format", format, ipa])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("preflight-unsupported-architecture"), "\(format): \(result.stdout.prefix(600))")
        #expect(result.stdout.contains("ITMS-90087"), "\(format)")
        #expect(result.stdout.contains("Payload/Store.app/Frameworks/Sim.framework/Sim"), "\(format)")
    }

    @Test func ipaWithoutAnAppIsAnInputErrorNamingIt() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-preflight"))
        tree.folder("empty/Payload", files: ["README": "text:no app here"])
        let ipa = tree.zip("empty", to: "Empty.ipa")
        let binary = CommandRunner.shipcheck(["binary", ipa])
        #expect(binary.status == 2)
        #expect(binary.stderr.contains("\(ipa): error: no Payload/*.app inside: nothing to check"), "\(binary.stderr)")
        let project = tree.directory.write("project/README.md", "no sources") as NSString
        let audit = CommandRunner.shipcheck(["audit", project.deletingLastPathComponent, "--binary", ipa])
        #expect(audit.status == 2)
        #expect(audit.stderr.contains("\(ipa): error: no Payload/*.app inside"), "\(audit.stderr)")
    }

    @Test func rulesAreTurnedOffAndRegradedInTheConfiguration() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-cli-preflight"))
        let ipa = Self.storeIPA(tree)
        let off = tree.directory.write("off.yml", "rules:\n  preflight-unsupported-architecture: off\n")
        #expect(CommandRunner.shipcheck(["binary", "--config", off, ipa]).status == 0)
        let warning = tree.directory.write("warning.yml", "rules:\n  preflight-unsupported-architecture: warning\n")
        let regraded = CommandRunner.shipcheck(["binary", "--config", warning, "--no-color", ipa])
        #expect(
            regraded.status == 0
                && regraded.stdout.contains(
                    "warning: Store.app/Frameworks/Sim.framework/Sim contains unsupported architectures"),
            "\(regraded.stdout)")
        let adHoc = tree.directory.write("adhoc.yml", "bundle:\n  distribution: ad-hoc\n")
        #expect(
            CommandRunner.shipcheck(["binary", "--config", adHoc, ipa]).status == 0,
            "a store-only rule on an ad-hoc build")
    }
}
