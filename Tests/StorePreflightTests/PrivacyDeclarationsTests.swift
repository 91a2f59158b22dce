import BinaryInspect
import Foundation
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@testable import StorePreflight

@Suite struct PrivacyDeclarationsTests {
    /// The rules' project-side examples (a source, manifest or Info.plist in a small XcodeGen
    /// project), each written into a tree and scanned as `audit` scans it.
    @Test(
        arguments: RuleRegistry.rules.filter { $0 is any PrivacyProjectRule.Type }.map {
            $0.description.examples(where: { !$0.isArtifactExample })
        })
    func examplesDriveTheRule(rule: RuleDescription) {
        #expect(
            !rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty,
            "\(rule.id) needs project examples both ways")
        // Every example is scanned with the rules in several orders, which must agree.
        var differences: [String] = []
        let failures = RuleExampleVerifier.verify(rule) { root in
            RuleOrders.result(of: RuleRegistry.rules, differences: &differences) { rules in
                ScanPipeline(root: root, configuration: Configuration()).run([
                    PrivacyDeclarationsCheck(rules: rules, configuration: Configuration())
                ]).combined
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    static let pbxproj = ExampleProject.pbxproj(
        objects: """
            \t\tPROJECT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; mainGroup = MAIN; targets = (APP, KIT); };
            \t\tPROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_RELEASE); };
            \t\tPROJECT_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {SDKROOT = iphoneos;}; };
            \t\tMAIN = {isa = PBXGroup; children = (APPGROUP); sourceTree = "<group>"; };
            \t\tAPPGROUP = {isa = PBXGroup; path = App; children = (CLOCK, FILES, MANIFEST, INFO); sourceTree = "<group>"; };
            \t\tCLOCK = {isa = PBXFileReference; path = Clock.swift; sourceTree = "<group>"; };
            \t\tFILES = {isa = PBXFileReference; path = Files.m; sourceTree = "<group>"; };
            \t\tMANIFEST = {isa = PBXFileReference; path = PrivacyInfo.xcprivacy; sourceTree = "<group>"; };
            \t\tINFO = {isa = PBXFileReference; path = Info.plist; sourceTree = "<group>"; };
            \t\tCLOCK_BUILD = {isa = PBXBuildFile; fileRef = CLOCK; };
            \t\tFILES_BUILD = {isa = PBXBuildFile; fileRef = FILES; };
            \t\tMANIFEST_BUILD = {isa = PBXBuildFile; fileRef = MANIFEST; };
            \t\tSOURCES = {isa = PBXSourcesBuildPhase; files = (CLOCK_BUILD, FILES_BUILD); };
            \t\tRESOURCES = {isa = PBXResourcesBuildPhase; files = (MANIFEST_BUILD); };
            \t\tAPP = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; buildPhases = (SOURCES, RESOURCES); name = App; productType = "com.apple.product-type.application"; };
            \t\tAPP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_RELEASE); };
            \t\tAPP_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = "$(SRCROOT)/App/Info.plist"; INFOPLIST_KEY_NSCameraUsageDescription = "Scans receipts";}; };
            \t\tKIT = {isa = PBXNativeTarget; buildConfigurationList = KIT_CONFIGS; buildPhases = (SOURCES); name = Kit; productType = "com.apple.product-type.framework"; };
            \t\tKIT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (KIT_RELEASE); };
            \t\tKIT_RELEASE = {isa = XCBuildConfiguration; name = Release; buildSettings = {}; };

            """, rootObject: "PROJECT")

    func audit(_ files: [String: String], configuration: Configuration = Configuration()) -> CheckResult {
        let tree = TemporaryDirectory("shipcheck-privacy")
        tree.write("App.xcodeproj/project.pbxproj", Self.pbxproj)
        for (path, text) in files { tree.write(path, text) }
        return ScanPipeline(root: tree.path, configuration: configuration).run([
            PrivacyDeclarationsCheck(rules: RuleRegistry.rules, configuration: configuration)
        ]).combined
    }

    @Test func xcodeTargetsSourcesResourcesAndSettingsAreRead() {
        let result = audit([
            "App/Clock.swift":
                "import Foundation\nlet a = UserDefaults.standard\nlet b = UserDefaults(suiteName: nil)\nlet cam = AVCaptureDevice.default(for: .video)\n",
            "App/Files.m":
                "#include <sys/stat.h>\nint f(const char *p) { struct stat s; return stat(p, &s); }\n[[CLLocationManager new] requestWhenInUseAuthorization];\n",
            "App/PrivacyInfo.xcprivacy": PrivacyManifestTestText.declaring(
                "NSPrivacyAccessedAPICategoryFileTimestamp", "C617.1"),
            "App/Info.plist":
                "<plist version=\"1.0\"><dict><key>NSLocationWhenInUseUsageDescription</key><string></string></dict></plist>"
        ])
        #expect(result.inputErrors.isEmpty)
        let shown = result.findings.map {
            "\($0.ruleID) \($0.location.path):\($0.location.line ?? 0) \($0.identity ?? "")"
        }
        #expect(
            shown == [
                "preflight-required-reason-api App/Clock.swift:2 target App NSPrivacyAccessedAPICategoryUserDefaults",
                "preflight-purpose-string App/Files.m:3 target App NSLocationWhenInUseUsageDescription"
            ])
        #expect(result.findings[0].related?.count == 2)
        #expect(result.findings[0].message.contains("(App/PrivacyInfo.xcprivacy) declares it"))
        #expect(result.findings[1].message.contains("ITMS-90738"))
    }

    @Test func macOSTargetsNeedNoReasonsAndOtherDistributionsNoStoreRules() {
        let macOS = Self.pbxproj.replacingOccurrences(of: "SDKROOT = iphoneos;", with: "SDKROOT = macosx;")
        let tree = TemporaryDirectory("shipcheck-privacy")
        tree.write("App.xcodeproj/project.pbxproj", macOS)
        tree.write("App/Clock.swift", "let a = UserDefaults.standard\n")
        let result = ScanPipeline(root: tree.path, configuration: Configuration()).run([
            PrivacyDeclarationsCheck(rules: RuleRegistry.rules, configuration: Configuration())
        ]).combined
        #expect(result.findings.isEmpty)
        var distribution = BundleSettings()
        distribution.distribution = .enterprise
        var enterprise = Configuration()
        enterprise.setSettings(distribution)
        #expect(
            audit(
                ["App/Clock.swift": "let a = UserDefaults.standard\n", "App/PrivacyInfo.xcprivacy": "not a plist"],
                configuration: enterprise
            ).findings.isEmpty)
    }

    /// Code under a condition the source rules call compiled in release counts as the release's,
    /// and code they call DEBUG-only does not, with the configured flags. `targetEnvironment
    /// (simulator)` is unknown before the build, and a Release build for the simulator (a UI
    /// test run, `xcodebuild -configuration Release` on a simulator destination) compiles the
    /// call; `preview-outside-debug` reports a preview under the same condition, so the privacy
    /// rule reports the call rather than assume a device build (once it skipped any `||`).
    @Test(arguments: [
        ("App/Clock.swift", "#if DEBUG || targetEnvironment(simulator)\nlet t = mach_absolute_time()\n#endif\n", 2),
        ("App/Files.m", "#if defined(DEBUG) || TARGET_OS_SIMULATOR\nuint64_t t = mach_absolute_time();\n#endif\n", 2),
        ("App/Clock.swift", "#if os(iOS)\n#elseif DEBUG\n#else\nlet t = mach_absolute_time()\n#endif\n", 4),
        ("App/Clock.swift", "#if DEBUG_MENU\nlet t = mach_absolute_time()\n#endif\n", nil),
        ("App/Files.m", "#ifdef DEBUG_MENU\nuint64_t t = mach_absolute_time();\n#endif\n", nil),
        ("App/Clock.swift", "#if APPSTORE\n#else\nlet t = mach_absolute_time()\n#endif\n", nil),
        ("App/Clock.swift", "#if os(iOS)\n#elseif DEBUG\nlet t = mach_absolute_time()\n#endif\n", nil)
    ])
    func releaseCodeIsWhatTheSourceRulesCallIt(path: String, source: String, reportedLine: Int?) {
        var configuration = Configuration()
        configuration.debugOnlyFlags = ["DEBUG_MENU"]
        configuration.releaseSetFlags = ["APPSTORE"]
        let shown = audit([path: source], configuration: configuration).findings.map {
            "\($0.ruleID) \($0.location.path):\($0.location.line ?? 0)"
        }
        #expect(shown == (reportedLine.map { ["preflight-required-reason-api \(path):\($0)"] } ?? []))
    }

    @Test func ruleTurnedOffReportsNothing() {
        var configuration = Configuration()
        configuration.ruleSeverities[RequiredReasonAPIRule.id] = .some(nil)
        #expect(
            audit(["App/Clock.swift": "let a = UserDefaults.standard\n"], configuration: configuration).findings.isEmpty
        )
    }
}

enum PrivacyManifestTestText {
    static func declaring(_ category: String, _ reason: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array><dict>
        <key>NSPrivacyAccessedAPIType</key><string>\(category)</string>
        <key>NSPrivacyAccessedAPITypeReasons</key><array><string>\(reason)</string></array>
        </dict></array></dict></plist>
        """
    }
}
