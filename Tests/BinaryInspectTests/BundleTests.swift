import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// Bundles assembled from the Mach-O and signing fixtures: every binary inside is checked, the
/// Debug-build signs and shipped test resources are found, and every finding names the file
/// inside the bundle — exactly the planted ones, nothing else (notes aside).
@Suite struct BundleTests {
    typealias Planted = MachOLeakTests.Planted

    /// A Debug build of an iOS app: flat layout, a framework, an app extension, a watch app with
    /// a nested framework, the debug-dylib layout, a development signature and profile, preview
    /// content and fixtures among the resources.
    static let debugApp: [String: String] = [
        "App": "bundle/App-ios-dev-signed",
        "App.debug.dylib": "macho/libAppLib.dylib",
        "__preview.dylib": "macho/libClean.dylib",
        "embedded.mobileprovision": "bundle/dev.mobileprovision",
        "Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "App"]),
        "Frameworks/AppLib.framework/AppLib": "macho/libAppLib-stripped.dylib",
        "Frameworks/AppLib.framework/Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "AppLib"]),
        "PlugIns/Widget.appex/Widget": "macho/App-ios-stripped",
        "Watch/Watch.app/Watch": "macho/libClean.dylib",
        "Watch/Watch.app/Frameworks/Clean.framework/Clean": "bundle/Clean-store-signed",
        "Preview Content/users.json": "text:[]",
        "Preview Content/avatar.png": "text:png",
        "UserFixtures.json": "text:{}",
        "Settings.bundle/Root.plist": "text:" + BundleAssembler.plist([:]),
        "Hammock.png": "text:png"
    ]

    static let library: [Planted] = MachOLeakTests.previews + MachOLeakTests.mocks + MachOLeakTests.strings

    static func at(_ path: String, _ planted: [Planted]) -> [(String, Planted)] { planted.map { (path, $0) } }

    /// What `debugApp` plants, by path inside the app.
    static let debugAppFindings: [(String, Planted)] = {
        var planted = at("App", MachOLeakTests.app)
        planted += at("App.debug.dylib", library)
        planted += at("Frameworks/AppLib.framework/AppLib", library)
        planted += at("PlugIns/Widget.appex/Widget", MachOLeakTests.app)
        planted += [
            ("App.debug.dylib", Planted("bundle-debug-dylib", "App.debug.dylib ships")),
            ("__preview.dylib", Planted("bundle-debug-dylib", "__preview.dylib ships")),
            ("Preview Content", Planted("bundle-test-resource", "folder 'Preview Content' (2 files)")),
            ("UserFixtures.json", Planted("bundle-test-resource", "'UserFixtures.json' ships"))
        ]
        return planted
    }()

    /// The signing signs, where signing is final (not in an .xcarchive).
    static let debugSigning: [(String, Planted)] = [
        ("App", Planted("bundle-get-task-allow", "the code signature's entitlements set get-task-allow = true")),
        (
            "App",
            Planted("bundle-development-push", "aps-environment is development in the code signature's entitlements")
        ),
        (
            "embedded.mobileprovision",
            Planted("bundle-get-task-allow", "'iOS Team Provisioning Profile: com.example.app' grants get-task-allow")
        ),
        (
            "embedded.mobileprovision",
            Planted("bundle-development-push", "aps-environment is development in the provisioning profile")
        ),
        (
            "embedded.mobileprovision",
            Planted(
                "bundle-development-profile",
                "development provisioning profile 'iOS Team Provisioning Profile: com.example.app' for 2 listed devices"
            )
        )
    ]

    /// A release build of the same app: nothing to report.
    static let releaseApp: [String: String] = [
        "App": "bundle/Clean-store-signed",
        "embedded.mobileprovision": "bundle/store.mobileprovision",
        "Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "App"]),
        "Frameworks/Clean.framework/Clean": "macho/libClean.dylib",
        "Settings.bundle/Root.plist": "text:" + BundleAssembler.plist([:]),
        "Hammock.png": "text:png",
        "stubborn.json": "text:{}"
    ]

    static func prefixed(_ prefix: String, _ planted: [(String, Planted)]) -> [(String, Planted)] {
        planted.map { (prefix + $0.0, $0.1) }
    }

    private func audit(_ path: String, configuration: Configuration = Configuration()) -> CheckResult {
        BinaryInspector(configuration: configuration, rules: RuleRegistry.rules).run(paths: [path])
    }

    /// Every error or warning is one planted finding at its path (relative to `root`), each found
    /// once. The store's rules on these bundles, built for leaks, are PreflightRuleTests' (only
    /// the test frameworks they load, which the leak rules left to it, are planted here).
    private func expectExactly(
        _ result: CheckResult, root: String, _ planted: [(String, Planted)],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)", sourceLocation: sourceLocation)
        var unmatched = planted
        var unexpected: [String] = []
        for finding in result.findings
        where finding.severity != .note
            && (!finding.ruleID.hasPrefix("preflight-") || finding.ruleID == "preflight-test-code-linked")
        {
            let match = unmatched.firstIndex { path, expected in
                finding.location.path == "\(root)/\(path)" && finding.ruleID == expected.rule
                    && (finding.message.contains(expected.text) || finding.snippet?.contains(expected.text) == true)
            }
            if let match {
                unmatched.remove(at: match)
            } else {
                unexpected.append("\(finding.location.path): \(finding.ruleID) \(finding.message)")
            }
        }
        #expect(unmatched.isEmpty, "not found: \(unmatched.map { "\($0.0): \($0.1)" })", sourceLocation: sourceLocation)
        #expect(unexpected.isEmpty, "false findings: \(unexpected)", sourceLocation: sourceLocation)
    }

    @Test func iOSAppIsWalkedWholeAndItsDebugSignsFound() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let app = tree.folder("Leaky.app", files: Self.debugApp)
        let result = audit(app)
        expectExactly(result, root: app, Self.debugAppFindings + Self.debugSigning)
        // The watch app's nested framework was read too (its notes name it).
        #expect(
            result.findings.contains { $0.location.path == "\(app)/Watch/Watch.app/Frameworks/Clean.framework/Clean" })
    }

    @Test func releaseAppHasNoFindings() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let app = tree.folder("Clean.app", files: Self.releaseApp)
        let result = audit(app)
        expectExactly(result, root: app, [])
        #expect(
            result.findings.contains { $0.location.path == "\(app)/Frameworks/Clean.framework/Clean" },
            "every binary is read")
    }

    @Test func ipaIsReadFromTheZipWithEveryFindingNamingItsEntry() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        tree.folder("export/Payload/Leaky.app", files: Self.debugApp)
        // Debug symbols and Apple's Swift runtime copies at the top of the ipa are not audited.
        tree.folder(
            "export",
            files: [
                "Symbols/4C4C4408.symbols": "macho/App-ios",
                "SwiftSupport/iphoneos/libswiftCore.dylib": "macho/libAppLib.dylib"
            ])
        let ipa = tree.zip("export", to: "Leaky.ipa")
        expectExactly(
            audit(ipa), root: ipa, Self.prefixed("Payload/Leaky.app/", Self.debugAppFindings + Self.debugSigning))
        tree.folder("release/Payload/Clean.app", files: Self.releaseApp)
        let clean = tree.zip("release", to: "Clean.ipa")
        expectExactly(audit(clean), root: clean, [])
    }

    @Test func exportOptionsBesideTheIpaSayHowItIsDistributed() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        tree.folder("export/Payload/Leaky.app", files: Self.debugApp)
        tree.zip("export", to: "out/Leaky.ipa")
        let ipa = "\(tree.directory.path)/out/Leaky.ipa"
        tree.directory.write("out/ExportOptions.plist", BundleAssembler.plist(["method": "debugging"]))
        expectExactly(audit(ipa), root: ipa, Self.prefixed("Payload/Leaky.app/", Self.debugAppFindings))
        tree.directory.write("out/ExportOptions.plist", BundleAssembler.plist(["method": "release-testing"]))
        let adHoc = audit(ipa).findings.filter { $0.ruleID == "bundle-development-profile" }
        #expect(
            adHoc.map(\.message) == [
                "development provisioning profile 'iOS Team Provisioning Profile: com.example.app' for 2 listed devices (ProvisionedDevices) in an artifact meant for ad-hoc distribution (method 'release-testing' in \(tree.directory.path)/out/ExportOptions.plist)"
            ])
        var development = BundleSettings()
        development.distribution = .development
        var configuration = Configuration()
        configuration.setSettings(development)
        expectExactly(
            audit(ipa, configuration: configuration), root: ipa,
            Self.prefixed("Payload/Leaky.app/", Self.debugAppFindings))
    }

    /// A macOS app: `Contents/MacOS`, a universal executable, a versioned framework whose
    /// symlinks are not followed (its binary is checked once, under Versions/A).
    @Test func macOSAppWithVersionedFramework() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let app = tree.folder(
            "Mac.app",
            files: [
                "Contents/Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "App"]),
                "Contents/MacOS/App": "macho/App-universal",
                "Contents/Frameworks/AppLib.framework/Versions/A/AppLib": "macho/libAppLib.dylib",
                "Contents/Frameworks/AppLib.framework/Versions/A/Resources/Info.plist": "text:"
                    + BundleAssembler.plist([:])
            ],
            symlinks: [
                "Contents/Frameworks/AppLib.framework/Versions/Current": "A",
                "Contents/Frameworks/AppLib.framework/AppLib": "Versions/Current/AppLib",
                "Contents/Frameworks/AppLib.framework/Resources": "Versions/Current/Resources",
                // A link out of the bundle is not followed: the leaky executable it names is not read.
                "Contents/Frameworks/Outside.framework/Outside": Repository.machOFixture("App-ios")
            ])
        let result = audit(app)
        let slices = result.findings.filter {
            $0.location.path == "\(app)/Contents/MacOS/App" && $0.severity != .note
                && !$0.ruleID.hasPrefix("preflight-")
        }
        #expect(slices.count == 2 * MachOLeakTests.appSlice.count)
        let library = Self.library
        expectExactly(
            CheckResult(findings: result.findings.filter { $0.location.path != "\(app)/Contents/MacOS/App" }),
            root: app,
            library.map { ("Contents/Frameworks/AppLib.framework/Versions/A/AppLib", $0) })
        #expect(result.inputErrors.isEmpty)
    }

    /// Frameworks and app extensions on their own: flat (iOS) and versioned (macOS, symlinks not
    /// followed, so the binary is read once), thin and stripped.
    @Test func frameworksAndExtensionsAsArtifacts() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let flat = tree.folder(
            "AppLib.framework",
            files: ["AppLib": "macho/libAppLib-stripped.dylib", "Info.plist": "text:" + BundleAssembler.plist([:])])
        expectExactly(audit(flat), root: flat, Self.at("AppLib", Self.library))
        let versioned = tree.folder(
            "Mac/AppLib.framework", files: ["Versions/A/AppLib": "macho/libAppLib.dylib"],
            symlinks: ["Versions/Current": "A", "AppLib": "Versions/Current/AppLib"])
        expectExactly(audit(versioned), root: versioned, Self.at("Versions/A/AppLib", Self.library))
        let widget = tree.folder(
            "Widget.appex",
            files: ["Widget": "macho/App-ios-strip-x", "Info.plist": "text:" + BundleAssembler.plist([:])])
        expectExactly(audit(widget), root: widget, Self.at("Widget", MachOLeakTests.app))
    }

    /// An xcframework: its AvailableLibraries are checked against its folders, each library's
    /// binary audited, dSYMs skipped.
    @Test func xcframeworkChecksEveryLibraryAndSkipsDSYMs() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let libraries = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>AvailableLibraries</key><array>
            <dict><key>LibraryIdentifier</key><string>ios-arm64</string><key>LibraryPath</key><string>AppLib.framework</string></dict>
            <dict><key>LibraryIdentifier</key><string>macos-arm64_x86_64</string><key>LibraryPath</key><string>AppLib.framework</string></dict>
            </array><key>XCFrameworkFormatVersion</key><string>1.0</string></dict></plist>
            """
        let framework = tree.folder(
            "AppLib.xcframework",
            files: [
                "Info.plist": "text:" + libraries,
                "ios-arm64/AppLib.framework/AppLib": "macho/libAppLib-stripped.dylib",
                "ios-arm64/dSYMs/AppLib.framework.dSYM/Contents/Resources/DWARF/AppLib": "macho/libAppLib.dylib",
                "macos-arm64_x86_64/AppLib.framework/Versions/A/AppLib": "macho/libAppLib.dylib"
            ])
        let library = Self.library
        expectExactly(
            audit(framework), root: framework,
            library.map { ("ios-arm64/AppLib.framework/AppLib", $0) }
                + library.map { ("macos-arm64_x86_64/AppLib.framework/Versions/A/AppLib", $0) })
        // A library the Info.plist lists but the folder lacks is an input error naming it.
        try? FileManager.default.removeItem(atPath: "\(framework)/macos-arm64_x86_64")
        let missing = audit(framework)
        #expect(
            missing.inputErrors.map(\.description) == [
                "\(framework)/Info.plist: error: AvailableLibraries lists macos-arm64_x86_64/AppLib.framework, which is not in the xcframework"
            ])
    }

    /// An xcarchive: the app under Products/Applications is checked, dSYMs skipped, and the
    /// signing is not judged (export re-signs it).
    @Test func xcarchiveChecksItsAppButNotItsSigning() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        var files: [String: String] = [
            "Info.plist": "text:" + BundleAssembler.plist(["Name": "Leaky"]),
            "dSYMs/App.app.dSYM/Contents/Resources/DWARF/App": "macho/App-ios"
        ]
        for (path, source) in Self.debugApp { files["Products/Applications/Leaky.app/\(path)"] = source }
        let archive = tree.folder("Leaky.xcarchive", files: files)
        expectExactly(
            audit(archive), root: archive, Self.prefixed("Products/Applications/Leaky.app/", Self.debugAppFindings))
    }

    /// A build folder: bundles inside it are walked whole, loose binaries by magic, and SwiftPM
    /// resource bundles beside an executable are checked for test data.
    @Test func directoriesFindTheirBundlesAndResourceBundles() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        tree.folder("build/Release-iphoneos/Clean.app", files: Self.releaseApp)
        tree.folder("build/Release-iphoneos", files: ["libAppLib.dylib": "macho/libAppLib.dylib"])
        let build = "\(tree.directory.path)/build"
        let result = audit(build)
        let library = Self.library
        expectExactly(result, root: build, library.map { ("Release-iphoneos/libAppLib.dylib", $0) })
        #expect(result.findings.contains { $0.location.path == "\(build)/Release-iphoneos/Clean.app/App" })

        tree.folder(
            "linux",
            files: [
                "server": "macho/libClean.dylib", "App_AppCore.resources/mocks/feed.json": "text:[]",
                "App_AppCore.resources/Localizable.strings": "text:"
            ])
        let server = "\(tree.directory.path)/linux/server"
        let resources = audit(server)
        expectExactly(
            resources, root: "\(tree.directory.path)/linux",
            [("App_AppCore.resources/mocks", Planted("bundle-test-resource", "folder 'mocks' (1 file)"))])
    }

    @Test func configurationTurnsRulesOffAndReplacesResourcePatterns() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-bundle"))
        let app = tree.folder("Leaky.app", files: Self.debugApp)
        var configuration = Configuration()
        for rule in [
            "bundle-get-task-allow", "bundle-development-push", "bundle-development-profile", "bundle-debug-dylib"
        ] {
            configuration.ruleSeverities[rule] = .some(nil)
        }
        configuration.setOptions(try TestResourceRule.Options(patterns: ["^Hammock"]), for: TestResourceRule.self)
        let findings = audit(app, configuration: configuration).findings.filter { $0.ruleID.hasPrefix("bundle-") }
        #expect(findings.map(\.location.path) == ["\(app)/Hammock.png"])
    }
}
