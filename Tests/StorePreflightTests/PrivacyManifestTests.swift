import Foundation
import ShipcheckTestSupport
import StorePreflight
import Testing

@Suite struct PrivacyManifestTests {
    static func xml(_ body: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """.utf8)
    }

    static func accessed(_ category: String, _ reasons: [String]) -> String {
        "<dict><key>NSPrivacyAccessedAPIType</key><string>\(category)</string><key>NSPrivacyAccessedAPITypeReasons</key><array>"
            + reasons.map { "<string>\($0)</string>" }.joined() + "</array></dict>"
    }

    @Test func validManifestDeclaresItsCategories() {
        let manifest = PrivacyManifest(
            bytes: Self.xml(
                """
                <key>NSPrivacyTracking</key><false/>
                <key>NSPrivacyTrackingDomains</key><array/>
                <key>NSPrivacyCollectedDataTypes</key><array><dict>
                  <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeCrashData</string>
                  <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                  <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                  <key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
                </dict></array>
                <key>NSPrivacyAccessedAPITypes</key><array>
                \(Self.accessed("NSPrivacyAccessedAPICategoryFileTimestamp", ["C617.1"]))
                \(Self.accessed("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1", "C56D.1"]))
                </array>
                """))
        #expect(manifest.problems == [])
        #expect(manifest.declared == [.fileTimestamp: ["C617.1"], .userDefaults: ["CA92.1", "C56D.1"]])
        #expect(manifest.reasons(for: .userDefaults, declaredByApp: true) == ["CA92.1"])
        #expect(manifest.reasons(for: .userDefaults, declaredByApp: false) == ["CA92.1", "C56D.1"])
    }

    @Test func binaryPropertyListReadsTheSame() throws {
        let plist: [String: Any] = [
            "NSPrivacyTracking": false,
            "NSPrivacyAccessedAPITypes": [
                [
                    "NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategorySystemBootTime",
                    "NSPrivacyAccessedAPITypeReasons": ["35F9.1"]
                ]
            ]
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let manifest = PrivacyManifest(bytes: Array(data))
        #expect(manifest.problems == [])
        #expect(manifest.declared == [.systemBootTime: ["35F9.1"]])
    }

    @Test func reasonsThatDoNotExistOrBelongElsewhereAreProblems() {
        let manifest = PrivacyManifest(
            bytes: Self.xml(
                """
                <key>NSPrivacyAccessedAPITypes</key><array>
                \(Self.accessed("NSPrivacyAccessedAPICategoryFileTimestamp", ["CA92.1", "C617.2", "DDA9.1"]))
                \(Self.accessed("NSPrivacyAccessedAPICategoryBatteryLevel", ["X.1"]))
                \(Self.accessed("NSPrivacyAccessedAPICategoryDiskSpace", []))
                </array>
                """))
        #expect(manifest.declared == [.fileTimestamp: ["DDA9.1"]])
        #expect(
            manifest.problems == [
                "NSPrivacyAccessedAPITypes[0] declares reason CA92.1 for file timestamp, but CA92.1 is a reason of user defaults",
                "NSPrivacyAccessedAPITypes[0] declares reason C617.2, which is not an approved reason of file timestamp (DDA9.1, C617.1, 3B52.1, 0A2A.1)",
                "NSPrivacyAccessedAPITypes[1].NSPrivacyAccessedAPIType 'NSPrivacyAccessedAPICategoryBatteryLevel' is not a required reason API category",
                "NSPrivacyAccessedAPITypes[2] (disk space) lists no NSPrivacyAccessedAPITypeReasons"
            ])
    }

    @Test func damagedManifestsAreProblemsNeverCrashes() {
        #expect(
            PrivacyManifest(bytes: Array("<plist><dict><key>x".utf8)).problems == [
                "not a property list (XML or binary)"
            ])
        #expect(PrivacyManifest(bytes: [UInt8]()).problems == ["not a property list (XML or binary)"])
        #expect(
            PrivacyManifest(bytes: Array("bplist00\u{0}\u{1}".utf8)).problems == ["not a property list (XML or binary)"]
        )
        #expect(
            PrivacyManifest(bytes: Array(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8)).problems
                == ["the root is not a dictionary"])
        let wrongTypes = PrivacyManifest(
            bytes: Self.xml(
                """
                <key>NSPrivacyTracking</key><string>NO</string>
                <key>NSPrivacyTrackingDomains</key><string>example.com</string>
                <key>NSPrivacyAccessedAPITypes</key><dict/>
                <key>NSPrivacyAccesedAPITypes</key><array/>
                """))
        #expect(
            wrongTypes.problems == [
                "NSPrivacyAccesedAPITypes is not a privacy manifest key",
                "NSPrivacyTracking is not a boolean",
                "NSPrivacyTrackingDomains is not an array of strings",
                "NSPrivacyAccessedAPITypes is not an array"
            ])
    }

    @Test func trackingWithoutDomainsAndBadPurposesAreProblems() {
        let manifest = PrivacyManifest(
            bytes: Self.xml(
                """
                <key>NSPrivacyTracking</key><true/>
                <key>NSPrivacyCollectedDataTypes</key><array><dict>
                  <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeDeviceID</string>
                  <key>NSPrivacyCollectedDataTypeLinked</key><integer>1</integer>
                  <key>NSPrivacyCollectedDataTypeTracking</key><true/>
                  <key>NSPrivacyCollectedDataTypePurposes</key><array><string>App functionality</string></array>
                </dict></array>
                """))
        #expect(
            manifest.problems == [
                "NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain",
                "NSPrivacyCollectedDataTypes[0].NSPrivacyCollectedDataTypeLinked is missing or not a boolean",
                "NSPrivacyCollectedDataTypes[0].NSPrivacyCollectedDataTypePurposes holds 'App functionality', which is not a purpose"
            ])
    }
}

@Suite struct PreflightTableTests {
    @Test func everyReasonCodeIsUniqueAndWellFormed() {
        let codes = RequiredReasonCategory.allCases.flatMap { $0.reasons.map(\.code) }
        #expect(codes.count == 17)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.wholeMatch(of: /[0-9A-F]{4}\.1/) != nil })
        #expect(RequiredReasonCategory.category(ofReason: "E174.1") == .diskSpace)
        #expect(RequiredReasonCategory.category(ofReason: "E174.2") == nil)
    }

    @Test func everyCategoryHasAPIsAndEveryAPIIsFoundByItsReference() {
        for category in RequiredReasonCategory.allCases {
            #expect(RequiredReasonAPIs.apis.contains { $0.categories.contains(category) }, "\(category)")
        }
        for api in RequiredReasonAPIs.apis {
            #expect(RequiredReasonAPIs.api(for: api.binary) == api)
            #expect(!api.swift.isEmpty && !api.objectiveC.isEmpty, "\(api.binary)")
        }
        #expect(RequiredReasonAPIs.api(for: .function("stat"))?.categories == [.fileTimestamp])
        #expect(RequiredReasonAPIs.api(for: .function("getattrlist"))?.categories == [.fileTimestamp, .diskSpace])
        #expect(RequiredReasonAPIs.api(for: .objcClass("NSUserDefaults"))?.categories == [.userDefaults])
        #expect(RequiredReasonAPIs.api(for: .function("open")) == nil)
    }

    @Test func importedNamesLoseTheirUnderscoreAndVariantSuffix() {
        #expect(BinaryReference.importedName("_stat$INODE64") == "stat")
        #expect(BinaryReference.importedName("_fstat") == "fstat")
        #expect(BinaryReference.importedName("_$s7Network9NWBrowserCMa") == "$s7Network9NWBrowserCMa")
        #expect(
            BinaryReference.swiftType(module: "Network", name: "NWBrowser").swiftSymbolPrefix == "$s7Network9NWBrowser")
    }

    @Test func listedSDKsMatchByModuleNameWithoutCase() {
        #expect(ListedSDKs.names.count == 86)
        #expect(ListedSDKs.entry(named: "Alamofire.framework") == "Alamofire")
        #expect(
            ListedSDKs.entry(named: "openssl.framework") == "BoringSSL / openssl_grpc"
                || ListedSDKs.entry(named: "openssl.framework") == "OpenSSL")
        #expect(ListedSDKs.entry(named: "openssl_grpc.framework") == "BoringSSL / openssl_grpc")
        #expect(ListedSDKs.entry(named: "libFMDB.a") == "FMDB")
        #expect(ListedSDKs.entry(named: "Lottie.xcframework") == "Lottie")
        #expect(ListedSDKs.entry(named: "SDWebImageSwiftUI.framework") == nil)
        #expect(ListedSDKs.entry(named: "App.framework") == nil)
    }

    @Test func purposeRowsNameKeysAndHowToFindThem() {
        let rows = PurposeStrings.requirements
        #expect(
            rows.allSatisfy {
                !$0.keys.isEmpty && !$0.binary.isEmpty && $0.keys.allSatisfy { $0.hasSuffix("UsageDescription") }
            })
        let keys = Set(rows.flatMap(\.keys))
        for key in [
            "NSCameraUsageDescription", "NSMicrophoneUsageDescription", "NSLocationWhenInUseUsageDescription",
            "NSLocationAlwaysAndWhenInUseUsageDescription", "NSContactsUsageDescription",
            "NSPhotoLibraryUsageDescription",
            "NSPhotoLibraryAddUsageDescription", "NSCalendarsFullAccessUsageDescription",
            "NSRemindersFullAccessUsageDescription",
            "NSBluetoothAlwaysUsageDescription", "NSHealthShareUsageDescription", "NSMotionUsageDescription",
            "NSSpeechRecognitionUsageDescription", "NSFaceIDUsageDescription", "NSAppleMusicUsageDescription",
            "NSUserTrackingUsageDescription", "NFCReaderUsageDescription", "NSHomeKitUsageDescription",
            "NSLocalNetworkUsageDescription"
        ] {
            #expect(keys.contains(key), "\(key)")
        }
    }
}

/// docs/preflight.md lists the data the privacy rules read: every SDK of Apple's list, every
/// approved reason with its category, every purpose-string key.
@Suite struct PreflightDataDocumentationTests {
    @Test func everyTableEntryIsInTheDocumentation() throws {
        let page = try String(contentsOfFile: Repository.path("docs/preflight.md"), encoding: .utf8)
        for name in ListedSDKs.names { #expect(page.contains("`\(name)`"), "\(name)") }
        for category in RequiredReasonCategory.allCases {
            for reason in category.reasons {
                #expect(page.contains("| `\(category.rawValue)` | `\(reason.code)` |"), "\(reason.code)")
            }
        }
        for key in Set(PurposeStrings.requirements.flatMap(\.keys)) { #expect(page.contains("`\(key)`"), "\(key)") }
        #expect(page.contains(ListedSDKs.source.retrieved) && page.contains(RequiredReasonAPIs.source.title))
    }
}
