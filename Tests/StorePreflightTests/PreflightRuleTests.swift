import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import StorePreflight
import Testing

/// The pre-flight rules on apps assembled from the fixtures (Tests/Fixtures/preflight/README.md)
/// as an .app, an .ipa and an .xcarchive, with XML and with binary Info.plists: every planted
/// case is reported once with its ITMS code, a clean release build and a standalone xcframework
/// get no warning or error.
@Suite struct PreflightRuleTests {
    struct Planted: CustomStringConvertible {
        var path: String
        var rule: String
        var text: String
        var description: String { "\(path): \(rule) \(text)" }
    }

    enum PlistForm: CaseIterable { case xml, binary }

    static func info(_ values: [String: String], _ form: PlistForm) -> [UInt8] {
        Array(
            try! PropertyListSerialization.data(
                fromPropertyList: values, format: form == .xml ? .xml : .binary, options: 0))
    }

    static func framework(_ name: String, minimum: String) -> [String: String] {
        [
            "CFBundleExecutable": name, "CFBundleIdentifier": "com.example.\(name.lowercased())",
            "CFBundleShortVersionString": "1.0",
            "CFBundleVersion": "1", "MinimumOSVersion": minimum
        ]
    }

    /// Writes an app at `folder` (relative to the tree): binaries from fixtures, Info.plists in `form`.
    static func app(
        _ tree: BundleAssembler, at folder: String, binaries: [String: String], plists: [String: [String: String]],
        form: PlistForm
    ) {
        tree.folder(folder, files: binaries)
        for (path, values) in plists { tree.directory.write("\(folder)/\(path)", bytes: info(values, form)) }
    }

    // MARK: A release build: nothing to report

    /// A privacy manifest declaring what Store-ios uses (file timestamps, boot time, user defaults).
    static let cleanBinaries = [
        "Store": "preflight/Store-ios", "Frameworks/Kit.framework/Kit": "preflight/Kit-ios",
        "PlugIns/Widget.appex/Widget": "preflight/Store-ios",
        "embedded.mobileprovision": "bundle/store.mobileprovision",
        "PrivacyInfo.xcprivacy": BundleAssembler.storeManifest,
        "PlugIns/Widget.appex/PrivacyInfo.xcprivacy": BundleAssembler.storeManifest
    ]
    static let cleanPlists: [String: [String: String]] = [
        "Info.plist": [
            "CFBundleExecutable": "Store", "CFBundleIdentifier": "com.example.app",
            "CFBundleShortVersionString": "2.1.0",
            "CFBundleVersion": "42", "MinimumOSVersion": "16.0"
        ],
        "Frameworks/Kit.framework/Info.plist": framework("Kit", minimum: "16.0"),
        "PlugIns/Widget.appex/Info.plist": [
            "CFBundleExecutable": "Widget", "CFBundleIdentifier": "com.example.app.widget",
            "CFBundleShortVersionString": "2.1.0", "CFBundleVersion": "42", "MinimumOSVersion": "16.0"
        ]
    ]

    func audit(_ path: String, configuration: Configuration = Configuration()) -> CheckResult {
        BinaryInspector(configuration: configuration, rules: RuleRegistry.rules).run(paths: [path])
    }

    func preflight(_ result: CheckResult) -> [Finding] {
        result.findings.filter { $0.ruleID.hasPrefix("preflight-") && $0.severity != .note }
    }

    @Test(arguments: PlistForm.allCases)
    func releaseBuildIsCleanAsAppIpaAndArchive(_ form: PlistForm) {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        Self.app(tree, at: "Store.app", binaries: Self.cleanBinaries, plists: Self.cleanPlists, form: form)
        Self.app(
            tree, at: "export/Payload/Store.app", binaries: Self.cleanBinaries, plists: Self.cleanPlists, form: form)
        let ipa = tree.zip("export", to: "Store.ipa")
        Self.app(
            tree, at: "Store.xcarchive/Products/Applications/Store.app", binaries: Self.cleanBinaries,
            plists: Self.cleanPlists, form: form)
        tree.folder(
            "Store.xcarchive",
            files: [
                "Info.plist": "text:" + BundleAssembler.plist(["Name": "Store"]),
                "dSYMs/Store.app.dSYM/Contents/Resources/DWARF/Store":
                    "preflight/Store-ios.dSYM/Contents/Resources/DWARF/Store-ios",
                "dSYMs/Kit.framework.dSYM/Contents/Resources/DWARF/Kit":
                    "preflight/Kit-ios.dSYM/Contents/Resources/DWARF/Kit-ios"
            ])
        for artifact in ["\(tree.directory.path)/Store.app", ipa, "\(tree.directory.path)/Store.xcarchive"] {
            let result = audit(artifact)
            #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
            #expect(preflight(result).isEmpty, "\(artifact): \(preflight(result).map(\.message))")
            #expect(
                result.findings.allSatisfy { $0.severity == .note },
                "\(result.findings.filter { $0.severity != .note }.map(\.message))")
        }
    }

    /// A standalone xcframework holds simulator libraries on purpose: nothing to report.
    @Test func standaloneXCFrameworkSimulatorLibrariesAreFine() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        let libraries = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>AvailableLibraries</key><array>
            <dict><key>LibraryIdentifier</key><string>ios-arm64</string><key>LibraryPath</key><string>Kit.framework</string></dict>
            <dict><key>LibraryIdentifier</key><string>ios-arm64_x86_64-simulator</string><key>LibraryPath</key><string>Kit.framework</string>
            <key>SupportedPlatformVariant</key><string>simulator</string></dict>
            </array></dict></plist>
            """
        let framework = tree.folder(
            "Kit.xcframework",
            files: [
                "Info.plist": "text:" + libraries,
                "ios-arm64/Kit.framework/Kit": "preflight/Kit-ios",
                "ios-arm64/Kit.framework/Info.plist": "text:"
                    + BundleAssembler.plist(Self.framework("Kit", minimum: "16.0")),
                "ios-arm64_x86_64-simulator/Kit.framework/Kit": "preflight/Sim-fat",
                "ios-arm64_x86_64-simulator/Kit.framework/Info.plist": "text:"
                    + BundleAssembler.plist(Self.framework("Kit", minimum: "16.0"))
            ])
        let result = audit(framework)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        #expect(preflight(result).isEmpty, "\(preflight(result).map(\.message))")
    }

    /// A watch app inside an iOS app: its universal executable's arm64_32 and arm64 slices are
    /// read (no input error), judged as watchOS (its own SDK floor, not the iOS app's), and
    /// neither 32-bit slice is an unsupported architecture.
    @Test func watchAppInsideAnIOSAppIsReadAndJudgedAsWatchOS() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        var binaries = Self.cleanBinaries
        binaries["Watch/W.app/W"] = "macho/WatchApp-universal"
        var plists = Self.cleanPlists
        plists["Watch/W.app/Info.plist"] = [
            "CFBundleExecutable": "W", "CFBundleIdentifier": "com.example.app.watchkitapp",
            "CFBundleShortVersionString": "2.1.0", "CFBundleVersion": "42", "MinimumOSVersion": "9.0",
            "WKApplication": "true"
        ]
        Self.app(tree, at: "export/Payload/Store.app", binaries: binaries, plists: plists, form: .binary)
        let result = audit(tree.zip("export", to: "Store.ipa"))
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        #expect(
            preflight(result).map { "\($0.ruleID): \($0.message)" } == [
                "preflight-sdk-too-old: Store.app/Watch/W.app/W was built with the watchOS 10.2 SDK; since 2026-04-28 App Store Connect takes only uploads built with the watchOS 26.0 SDK or later, in Xcode 26 or later (ITMS-90725)"
            ])
        let leaks = result.findings.filter { $0.ruleID == "binary-preview-conformance" }
        #expect(leaks.count == 6, "three preview types in each of the two slices: \(leaks.map(\.message))")
    }

    /// Bitcode by linkage: a static library's `__LLVM,__bitcode` is dropped when the app links,
    /// so a static xcframework built with ENABLE_BITCODE gets a note, whatever severity the
    /// rule is configured with; a dynamic framework's bitcode bundle is the rejection.
    @Test func staticLibraryBitcodeIsANoteAndDynamicBitcodeTheRejection() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        func xcframework(_ name: String, library: String, fixture: String) -> String {
            tree.folder(
                "\(name).xcframework",
                files: [
                    "Info.plist": "text:" + """
                        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>AvailableLibraries</key><array>
                        <dict><key>LibraryIdentifier</key><string>ios-arm64</string><key>LibraryPath</key><string>\(library)</string></dict>
                        </array></dict></plist>
                        """,
                    "ios-arm64/\(library)\(library.hasSuffix(".framework") ? "/\(name)" : "")": fixture
                ])
        }
        let staticLibrary = xcframework("Vendor", library: "libVendor.a", fixture: "preflight/libStaticBitcode-ios.a")
        let dynamic = xcframework("Bitcode", library: "Bitcode.framework", fixture: "preflight/Bitcode-ios")
        var configuration = Configuration()
        configuration.ruleSeverities["preflight-bitcode"] = .error
        let result = audit(staticLibrary, configuration: configuration)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let bitcode = result.findings.filter { $0.ruleID == "preflight-bitcode" }
        #expect(
            bitcode.map { "\($0.severity): \($0.message)" } == [
                "note: ios-arm64/libVendor.a is a static library with bitcode (arm64(StaticBitcode.o): section __LLVM,__bitcode, 2496 bytes): the linker drops it from the app, so the App Store never sees it"
            ])
        let rejected = audit(dynamic).findings.filter { $0.ruleID == "preflight-bitcode" }
        #expect(rejected.map(\.severity) == [.error])
        #expect(rejected.first?.message.contains("(ITMS-90482)") == true)
    }

    /// SDWebImage linked into a vendor framework of another name (its Objective-C classes in
    /// Stipop-ios) is told by its classes and reported at that framework, as Apple's mails do;
    /// its resource bundle with a manifest in the app satisfies it.
    @Test func listedSDKLinkedIntoAnotherFrameworkIsToldByItsClasses() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        var binaries = Self.cleanBinaries
        binaries["Frameworks/Stipop.framework/Stipop"] = "preflight/Stipop-ios"
        var plists = Self.cleanPlists
        plists["Frameworks/Stipop.framework/Info.plist"] = Self.framework("Stipop", minimum: "16.0")
        Self.app(tree, at: "Store.app", binaries: binaries, plists: plists, form: .xml)
        let app = "\(tree.directory.path)/Store.app"
        #expect(
            preflight(audit(app)).map { "\($0.ruleID): \($0.message)" } == [
                "preflight-sdk-privacy-manifest: Store.app/Frameworks/Stipop.framework/Stipop includes SDWebImage (its Objective-C classes 'SDWebImageDownloader', 'SDWebImageManager'), an SDK Apple lists as commonly used, linked into it, and no resource bundle of SDWebImage with a PrivacyInfo.xcprivacy ships with it: App Store Connect rejects the upload (ITMS-91061 Missing privacy manifest)"
            ])
        tree.folder(
            "Store.app/Frameworks/Stipop.framework/SDWebImage.bundle",
            files: ["PrivacyInfo.xcprivacy": "text:" + BundleAssembler.plist([:])])
        let fixed = audit(app)
        #expect(fixed.inputErrors.isEmpty, "\(fixed.inputErrors)")
        #expect(preflight(fixed).isEmpty, "\(preflight(fixed).map(\.message))")
    }

    /// OneSignal 5 ships each of its frameworks as an xcframework with its own privacy manifest;
    /// their classes carry the vendor's name (`OneSignalClient` in `OneSignalCore`). That is the
    /// SDK itself, known by the framework's name or its bundle identifier's organisation, not
    /// a copy linked into something else: no error. The same classes inside another vendor's
    /// framework still are; and a listed framework without its manifest is one error, not two.
    @Test func aVendorsOwnFrameworksWithTheirManifestsAreTheSDK() {
        // One tree per case (a case without a manifest must not see another's), kept to the end.
        var trees: [BundleAssembler] = []
        func xcframework(_ name: String, identifier: String, manifest: Bool) -> String {
            let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
            trees.append(tree)
            var files = [
                "Info.plist": "text:" + """
                    <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>AvailableLibraries</key><array>
                    <dict><key>LibraryIdentifier</key><string>ios-arm64</string><key>LibraryPath</key><string>\(name).framework</string></dict>
                    </array></dict></plist>
                    """,
                "ios-arm64/\(name).framework/\(name)": "preflight/OneSignalCore-ios"
            ]
            if manifest { files["ios-arm64/\(name).framework/PrivacyInfo.xcprivacy"] = BundleAssembler.storeManifest }
            let folder = tree.folder("\(name).xcframework", files: files)
            var info = Self.framework(name, minimum: "12.0")
            info["CFBundleIdentifier"] = identifier
            tree.directory.write(
                "\(name).xcframework/ios-arm64/\(name).framework/Info.plist", bytes: Self.info(info, .binary))
            return folder
        }
        func errors(_ path: String) -> [String] {
            let result = audit(path)
            #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
            return preflight(result).filter { $0.ruleID == "preflight-sdk-privacy-manifest" }.map(\.message)
        }
        for (name, identifier) in [
            ("OneSignalCore", "com.onesignal.OneSignalCore"),
            ("OneSignalInAppMessages", "com.onesignal.OneSignalInAppMessages"),
            ("OSNotifications", "com.onesignal.OSNotifications")
        ] {
            #expect(errors(xcframework(name, identifier: identifier, manifest: true)) == [], "\(name)")
        }
        let copied = errors(xcframework("PushPlus", identifier: "com.example.pushplus", manifest: true))
        #expect(
            copied.map { $0.prefix { $0 != "," } } == [
                "ios-arm64/PushPlus.framework/PushPlus includes OneSignal (its Objective-C classes 'OneSignalClient')",
                "ios-arm64/PushPlus.framework/PushPlus includes OneSignalCore (its Objective-C classes 'OneSignalCoreHelper')"
            ])
        let unlisted = errors(xcframework("OneSignalCore", identifier: "com.onesignal.OneSignalCore", manifest: false))
        #expect(
            unlisted.count == 1 && unlisted.first?.contains("holds no PrivacyInfo.xcprivacy") == true, "\(unlisted)")
    }

    /// SVProgressHUD 1.1.3 as Carthage built it in 2015 (committed, Tests/Fixtures/real-apple-sdk):
    /// its device slices are signed, its simulator slices not; the finding says which.
    @Test func aPartlySignedSDKNamesTheSlicesWithoutASignature() throws {
        let result = audit(Repository.path("Tests/Fixtures/real-apple-sdk/SVProgressHUD.framework"))
        let signature = try #require(result.findings.first { $0.ruleID == "preflight-sdk-signature" })
        #expect(
            signature.message.contains(
                "its binary's i386, x86_64 slices carry no code signature (its other slices do)"),
            "\(signature.message)")
    }

    /// Store-only rules stay quiet for another distribution; the crash and test-code rules do not.
    @Test func adHocDistributionKeepsOnlyWhatBreaksEveryInstall() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        Self.app(tree, at: "Store.app", binaries: Self.plantedBinaries, plists: Self.plantedPlists, form: .xml)
        var adHoc = BundleSettings()
        adHoc.distribution = .adHoc
        var configuration = Configuration()
        configuration.setSettings(adHoc)
        let rules = Set(
            preflight(audit("\(tree.directory.path)/Store.app", configuration: configuration)).map(\.ruleID))
        #expect(rules == ["preflight-framework-minimum-os", "preflight-test-code-linked", "preflight-profile-identity"])
    }

    /// A dSYM from another build of the same image is named as such.
    @Test func dSYMOfAnotherBuildIsAMismatch() {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        let archive = tree.folder(
            "Store.xcarchive",
            files: [
                "Products/Applications/Store.app/Store": "preflight/Store-ios",
                "dSYMs/Store.app.dSYM/Contents/Resources/DWARF/Store":
                    "preflight/Kit-ios.dSYM/Contents/Resources/DWARF/Kit-ios"
            ])
        let findings = preflight(audit(archive)).filter { $0.ruleID == "preflight-dsym-missing" }
        #expect(
            findings.map(\.message) == [
                "Store.app/Store: dSYMs/Store.app.dSYM is from another build (its UUIDs 4C4C44E6-5555-3144-A166-CEF5BF2E5CD7, the image's 4C4C446B-5555-3144-A100-5BB2D3BF7E9E (arm64)): crashes from this release cannot be symbolicated"
            ])
    }

    /// The SDK floor option replaces the table's floor; the debugging-tools option extends the
    /// list. Their former keys (`preflight.…`) read the same.
    @Test(arguments: [
        """
        rules:
          preflight-sdk-too-old:
            minimum-sdk:
              ios: "27.0"
          preflight-test-code-linked:
            debugging-tools: [InHouseInspector]
        """,
        """
        preflight:
          minimum-sdk:
            ios: "27.0"
          debugging-tools: [InHouseInspector]
        """
    ])
    func configurationSetsTheFloorAndAddsDebuggingTools(_ text: String) throws {
        let configuration = try ConfigurationLoader.parse(
            text, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
        #expect(configuration.deprecations.count == (text.hasPrefix("preflight") ? 2 : 0))
        let inspector = BinaryInspector(configuration: configuration, rules: RuleRegistry.rules)
        let floor = try inspector.check(BundleContents(example: "image Payload/App.app/App arm64 ios 16.0 26.0")).filter
        { $0.ruleID == "preflight-sdk-too-old" }
        #expect(
            floor.map(\.message) == [
                "App.app/App was built with the iOS 26.0 SDK; rules.preflight-sdk-too-old.minimum-sdk requires the iOS 27.0 SDK or later (ITMS-90725)"
            ])
        let tool = try inspector.check(
            BundleContents(
                example:
                    "image Payload/App.app/App arm64 ios 16.0 27.0\ndylib @rpath/InHouseInspector.framework/InHouseInspector"
            ))
        #expect(
            tool.filter { $0.ruleID == "preflight-test-code-linked" }.map(\.message) == [
                "App.app/App links InHouseInspector (rules.preflight-test-code-linked.debugging-tools): @rpath/InHouseInspector.framework/InHouseInspector (LC_LOAD_DYLIB): test or debugging code in a release build (ITMS-90338; missing on users' devices, so a crash at launch)"
            ])
        for bad in [
            "preflight:\n  minimum-sdk:\n    android: \"14\"\n", "preflight:\n  minimum-sdk:\n    ios: latest\n",
            "preflight:\n  floor: 1\n", "rules:\n  preflight-sdk-too-old:\n    minimum-sdk:\n      ios: latest\n"
        ] {
            #expect(throws: InputError.self) {
                try ConfigurationLoader.parse(
                    bad, file: ".shipcheck.yml", rules: RuleRegistry.rules, settings: SettingsRegistry.settings)
            }
        }
    }

    /// A floor Apple announced for a later day is a warning until then.
    @Test func announcedFloorIsAWarningBeforeItsDay() throws {
        let inspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)
        func sdk(_ text: String) throws -> [Finding] {
            try inspector.check(BundleContents(example: text)).filter { $0.ruleID == "preflight-sdk-too-old" }
        }
        let early = try sdk("upload 2026-02-10\nimage Payload/App.app/App arm64 ios 16.0 18.5")
        #expect(early.map(\.severity) == [.warning])
        #expect(
            early.first?.message.contains(
                "starting 2026-04-28 App Store Connect takes only uploads built with the iOS 26.0 SDK") == true)
        let late = try sdk("upload 2026-05-10\nimage Payload/App.app/App arm64 ios 16.0 18.5")
        #expect(late.map(\.severity) == [.error])
    }
}
