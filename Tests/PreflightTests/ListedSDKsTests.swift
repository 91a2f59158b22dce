import Preflight
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

    @Test func everyClassPrefixIsAnEntryOfTheList() {
        #expect(!ListedSDKs.objectiveCPrefixes.isEmpty)
        for prefix in ListedSDKs.objectiveCPrefixes {
            #expect(ListedSDKs.entry(ofObjectiveCClass: prefix) == prefix)
            #expect(ListedSDKs.names.contains(prefix), "\(prefix)")
        }
    }
}
