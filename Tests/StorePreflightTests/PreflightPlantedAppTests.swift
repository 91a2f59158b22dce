import BinaryInspect
import ShipcheckCore
import ShipcheckTestSupport
import Testing

/// The planted app of `PreflightRuleTests`: every case App Store Connect refuses, planted in one
/// app read as an .app, an .ipa and an .xcarchive, each found exactly once.
extension PreflightRuleTests {
    static let plantedBinaries = [
        "Store": "preflight/Store-ios",
        "embedded.mobileprovision": "bundle/store.mobileprovision",
        "Frameworks/Sim.framework/Sim": "preflight/Sim-fat",
        "Frameworks/SimOnly.framework/SimOnly": "preflight/SimOnly-arm64",
        "Frameworks/Newer.framework/Newer": "preflight/Newer-ios",
        "Frameworks/Bitcode.framework/Bitcode": "preflight/Bitcode-ios",
        "PlugIns/Widget.appex/Widget": "macho/App-ios-stripped",
        // A framework named like a listed SDK without its manifest, one with a reason that does not exist.
        "Frameworks/Alamofire.framework/Alamofire": "preflight/Kit-ios",
        "Frameworks/Kit.framework/Kit": "preflight/Kit-ios",
        // A framework asking for location (the app's Info.plist does not say why), a listed SDK unsigned.
        "Frameworks/Location.framework/Location": "preflight/Location-ios",
        "Frameworks/Starscream.framework/Starscream": "preflight/Unsigned-ios",
        "Frameworks/Starscream.framework/PrivacyInfo.xcprivacy": "text:" + BundleAssembler.plist([:]),
        "Frameworks/Kit.framework/PrivacyInfo.xcprivacy": "text:" + """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array>
            <dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryDiskSpace</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>E174.2</string></array></dict>
            </array></dict></plist>
            """
    ]
    static let plantedPlists: [String: [String: String]] = [
        "Info.plist": [
            "CFBundleExecutable": "Store", "CFBundleIdentifier": "com.example.store",
            "CFBundleShortVersionString": "2.1 beta",
            "CFBundleVersion": "42", "MinimumOSVersion": "15.0"
        ],
        "Frameworks/Sim.framework/Info.plist": framework("Sim", minimum: "16.0"),
        "Frameworks/SimOnly.framework/Info.plist": framework("SimOnly", minimum: "16.0"),
        "Frameworks/Newer.framework/Info.plist": framework("Newer", minimum: "18.0"),
        "Frameworks/Bitcode.framework/Info.plist": framework("Bitcode", minimum: "12.0"),
        "Frameworks/Alamofire.framework/Info.plist": framework("Alamofire", minimum: "16.0"),
        "Frameworks/Location.framework/Info.plist": framework("Location", minimum: "16.0"),
        "Frameworks/Starscream.framework/Info.plist": framework("Starscream", minimum: "16.0"),
        "Frameworks/Kit.framework/Info.plist": framework("Kit", minimum: "16.0"),
        "PlugIns/Widget.appex/Info.plist": [
            "CFBundleExecutable": "Widget", "CFBundleIdentifier": "com.example.store.widget",
            "CFBundleShortVersionString": "2.0", "CFBundleVersion": "42", "MinimumOSVersion": "17.0"
        ]
    ]

    /// What the planted app plants, by path inside the app; `signing`: where signing is final.
    static func planted(archive: Bool) -> [Planted] {
        var planted = [
            Planted(
                path: "Info.plist", rule: "preflight-bundle-version",
                text:
                    "CFBundleShortVersionString '2.1 beta' is not a period-separated list of at most three non-negative integers (ITMS-90060)"
            ),
            Planted(
                path: "Info.plist", rule: "preflight-minimum-os-mismatch",
                text: "MinimumOSVersion is 15.0, but its executable needs 16.0 (LC_BUILD_VERSION)"),
            Planted(
                path: "Frameworks/Sim.framework/Sim", rule: "preflight-unsupported-architecture",
                text: "contains unsupported architectures '[x86_64 (iOS Simulator)]' in an iOS app (ITMS-90087)"),
            Planted(
                path: "Frameworks/SimOnly.framework/SimOnly", rule: "preflight-unsupported-architecture",
                text: "contains unsupported architectures '[arm64 (iOS Simulator)]'"),
            Planted(
                path: "Frameworks/Newer.framework/Newer", rule: "preflight-framework-minimum-os",
                text: "needs iOS 18.0 (its LC_BUILD_VERSION minos), but Store.app runs from iOS 16.0"),
            Planted(
                path: "Frameworks/Bitcode.framework/Bitcode", rule: "preflight-bitcode",
                text: "contains bitcode (arm64: section __LLVM,__bundle, 8 bytes)"),
            Planted(
                path: "PlugIns/Widget.appex/Widget", rule: "preflight-test-code-linked",
                text: "links XCTest: @rpath/XCTest.framework/XCTest (LC_LOAD_DYLIB)"),
            Planted(
                path: "PlugIns/Widget.appex/Widget", rule: "preflight-sdk-too-old",
                text:
                    "was built with the iOS 17.5 SDK; since 2026-04-28 App Store Connect takes only uploads built with the iOS 26.0 SDK or later, in Xcode 26 or later (ITMS-90725)"
            ),
            Planted(
                path: "PlugIns/Widget.appex/Info.plist", rule: "preflight-extension-version",
                text: "CFBundleShortVersionString '2.0' differs from the app's '2.1 beta'"),
            // The privacy rules: Store-ios's APIs without a manifest, a listed SDK, a reason that does not exist.
            Planted(
                path: "Store", rule: "preflight-required-reason-api",
                text:
                    "references 'NSFileModificationDate', 'stat()', 'fstat()' (file timestamp: NSPrivacyAccessedAPICategoryFileTimestamp) and Store.app has no PrivacyInfo.xcprivacy"
            ),
            Planted(
                path: "Store", rule: "preflight-required-reason-api",
                text:
                    "references '-systemUptime', 'mach_absolute_time()' (system boot time: NSPrivacyAccessedAPICategorySystemBootTime)"
            ),
            Planted(
                path: "Store", rule: "preflight-required-reason-api",
                text: "references 'NSUserDefaults' (user defaults: NSPrivacyAccessedAPICategoryUserDefaults)"),
            Planted(
                path: "Frameworks/Alamofire.framework/Alamofire", rule: "preflight-sdk-privacy-manifest",
                text: "is Alamofire, an SDK Apple lists as commonly used, and it holds no PrivacyInfo.xcprivacy"),
            Planted(
                path: "Frameworks/Kit.framework/PrivacyInfo.xcprivacy", rule: "preflight-privacy-manifest-invalid",
                text: "declares reason E174.2, which is not an approved reason of disk space"),
            Planted(
                path: "Frameworks/Location.framework/Location", rule: "preflight-purpose-string",
                text:
                    "references 'CLLocationManager', '-requestWhenInUseAuthorization' (location when in use) and Store.app/Info.plist has no NSLocationWhenInUseUsageDescription: App Store Connect rejects the upload (ITMS-90683"
            ),
            Planted(
                path: "Frameworks/Starscream.framework/Starscream", rule: "preflight-sdk-signature",
                text:
                    "is Starscream, an SDK Apple lists as commonly used, and its binary carries no code signature (arm64)"
            )
        ]
        if archive {
            // dSYMs/ holds the app's only.
            for path in [
                "Frameworks/Sim.framework/Sim", "Frameworks/SimOnly.framework/SimOnly",
                "Frameworks/Newer.framework/Newer",
                "Frameworks/Bitcode.framework/Bitcode", "PlugIns/Widget.appex/Widget",
                "Frameworks/Alamofire.framework/Alamofire", "Frameworks/Kit.framework/Kit",
                "Frameworks/Location.framework/Location",
                "Frameworks/Starscream.framework/Starscream"
            ] {
                planted.append(
                    Planted(
                        path: path, rule: "preflight-dsym-missing",
                        text: "under dSYMs/: crashes from this release cannot be symbolicated"))
            }
        } else {
            planted.append(
                Planted(
                    path: "embedded.mobileprovision", rule: "preflight-profile-identity",
                    text:
                        "Store.app is com.example.store, but its provisioning profile 'Example App Store' provisions ABCDE12345.com.example.app (ITMS-90164)"
                ))
        }
        return planted
    }

    /// Every pre-flight error or warning is one planted case at its path, each found once.
    private func expectExactly(
        _ result: CheckResult, root: String, _ planted: [Planted],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)", sourceLocation: sourceLocation)
        var unmatched = planted
        var unexpected: [String] = []
        for finding in preflight(result) {
            if let index = unmatched.firstIndex(where: {
                finding.location.path == "\(root)/\($0.path)" && finding.ruleID == $0.rule
                    && finding.message.contains($0.text)
            }) {
                unmatched.remove(at: index)
            } else {
                unexpected.append("\(finding.location.path): \(finding.ruleID) \(finding.message)")
            }
        }
        #expect(unmatched.isEmpty, "not found: \(unmatched)", sourceLocation: sourceLocation)
        #expect(unexpected.isEmpty, "false findings: \(unexpected)", sourceLocation: sourceLocation)
    }

    @Test(arguments: PlistForm.allCases)
    func everyPlantedCaseIsFoundInAppIpaAndArchive(_ form: PlistForm) {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-preflight"))
        Self.app(tree, at: "Store.app", binaries: Self.plantedBinaries, plists: Self.plantedPlists, form: form)
        expectExactly(
            audit("\(tree.directory.path)/Store.app"), root: "\(tree.directory.path)/Store.app",
            Self.planted(archive: false))

        Self.app(
            tree, at: "export/Payload/Store.app", binaries: Self.plantedBinaries, plists: Self.plantedPlists, form: form
        )
        let ipa = tree.zip("export", to: "Store.ipa")
        expectExactly(audit(ipa), root: "\(ipa)/Payload/Store.app", Self.planted(archive: false))

        Self.app(
            tree, at: "Store.xcarchive/Products/Applications/Store.app", binaries: Self.plantedBinaries,
            plists: Self.plantedPlists, form: form)
        tree.folder(
            "Store.xcarchive",
            files: [
                "Info.plist": "text:" + BundleAssembler.plist(["Name": "Store"]),
                "dSYMs/Store.app.dSYM/Contents/Resources/DWARF/Store":
                    "preflight/Store-ios.dSYM/Contents/Resources/DWARF/Store-ios"
            ])
        let archive = "\(tree.directory.path)/Store.xcarchive"
        expectExactly(audit(archive), root: "\(archive)/Products/Applications/Store.app", Self.planted(archive: true))
    }
}
