import StorePreflight
import Testing

/// How a listed SDK is told by the names it leaves in an artifact.
@Suite struct ListedSDKsTests {
    @Test(arguments: [
        ("Alamofire.framework", "Alamofire"), ("libFMDB.a", "FMDB"),
        ("openssl_grpc.xcframework", "BoringSSL / openssl_grpc"),
        ("lottie", "Lottie"), ("AlamofireImage.framework", nil)
    ])
    func frameworksAndModulesByName(_ name: String, _ entry: String?) {
        #expect(ListedSDKs.entry(named: name) == entry)
    }

    @Test(arguments: [
        ("SDWebImage.bundle", "SDWebImage"), ("FirebaseCore_Privacy.bundle", "FirebaseCore"),
        ("Alamofire_Alamofire.bundle", "Alamofire"),
        ("flutter_local_notifications_privacy.bundle", "flutter_local_notifications"),
        ("Settings.bundle", nil), ("SDWebImage.framework", nil)
    ])
    func resourceBundlesAsPackageManagersNameThem(_ name: String, _ entry: String?) {
        #expect(ListedSDKs.entry(ofResourceBundle: name) == entry)
    }

    /// Only the Objective-C SDKs whose classes carry their name, and only at a word boundary.
    @Test(arguments: [
        ("SDWebImageManager", "SDWebImage"), ("MBProgressHUD", "MBProgressHUD"),
        ("OneSignalOutcomeEventsController", "OneSignal"), ("OneSignalOutcomesManager", "OneSignalOutcomes"),
        ("SDWebImageless", nil), ("ToastView", nil), ("ChartsRenderer", nil), ("Reachability", nil),
        ("FMDatabase", nil)
    ])
    func objectiveCClassesOfSDKsThatCarryTheirName(_ name: String, _ entry: String?) {
        #expect(ListedSDKs.entry(ofObjectiveCClass: name) == entry)
    }

    /// A vendor's own frameworks, by name or by bundle identifier; a shared prefix of names
    /// from different authors, or an app's framework, is not one.
    @Test(
        arguments: [
            ("OneSignal", "OneSignalCore", nil, true), ("OneSignalOutcomes", "OneSignalInAppMessages", nil, true),
            ("OneSignal", "OSNotifications", "com.onesignal.OSNotifications", true),
            ("FirebaseCore", "FirebaseAnalytics", nil, true), ("GTMSessionFetcher", "GTMAppAuth", nil, true),
            ("OneSignal", "Stipop", "com.stipop.Stipop", false), ("SwiftyJSON", "SwiftyGif", nil, false),
            ("AppAuth", "AppCore", "com.example.AppCore", false),
            ("flutter_local_notifications", "flutter_inappwebview", nil, false),
            ("path_provider", "path_provider_foundation", nil, true),
            ("OneSignal", "OneSignalingKit", "com.example.kit", false)
        ] as [(String, String, String?, Bool)])
    func vendorFamilies(_ entry: String, _ module: String, _ identifier: String?, _ isFamily: Bool) {
        #expect(ListedSDKs.isOwnVendorFamily(of: entry, module: module, bundleIdentifier: identifier) == isFamily)
    }

    @Test func everyClassPrefixIsAnEntryOfTheList() {
        #expect(!ListedSDKs.objectiveCPrefixes.isEmpty)
        for prefix in ListedSDKs.objectiveCPrefixes {
            #expect(ListedSDKs.entry(ofObjectiveCClass: prefix) == prefix)
            #expect(ListedSDKs.names.contains(prefix), "\(prefix)")
        }
    }
}
