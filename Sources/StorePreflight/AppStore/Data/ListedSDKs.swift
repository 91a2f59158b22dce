import Foundation
import ShipcheckCore

/// Apple's list of commonly used third-party SDKs: an app that includes one (any version, or an
/// SDK repackaging one) must ship the SDK's privacy manifest, and its signature when the SDK is
/// a binary dependency (ITMS-91061, ITMS-91065).
package enum ListedSDKs {
    package static let source = DataSource(
        title: "Third-party SDK requirements: SDKs that require a privacy manifest and signature",
        url: "https://developer.apple.com/support/third-party-SDK-requirements/", retrieved: "2026-11-26")

    /// As Apple writes them; "BoringSSL / openssl_grpc" is one entry with two names.
    package static let names: [String] = [
        "Abseil", "AFNetworking", "Alamofire", "AppAuth", "BoringSSL / openssl_grpc", "Capacitor", "Charts",
        "connectivity_plus", "Cordova", "device_info_plus", "DKImagePickerController", "DKPhotoGallery",
        "FBAEMKit", "FBLPromises", "FBSDKCoreKit", "FBSDKCoreKit_Basics", "FBSDKLoginKit", "FBSDKShareKit",
        "file_picker", "FirebaseABTesting", "FirebaseAuth", "FirebaseCore", "FirebaseCoreDiagnostics",
        "FirebaseCoreExtension", "FirebaseCoreInternal", "FirebaseCrashlytics", "FirebaseDynamicLinks",
        "FirebaseFirestore", "FirebaseInstallations", "FirebaseMessaging", "FirebaseRemoteConfig", "Flutter",
        "flutter_inappwebview", "flutter_local_notifications", "fluttertoast", "FMDB", "geolocator_apple",
        "GoogleDataTransport", "GoogleSignIn", "GoogleToolboxForMac", "GoogleUtilities", "grpcpp", "GTMAppAuth",
        "GTMSessionFetcher", "hermes", "image_picker_ios", "IQKeyboardManager", "IQKeyboardManagerSwift",
        "Kingfisher", "leveldb", "Lottie", "MBProgressHUD", "nanopb", "OneSignal", "OneSignalCore",
        "OneSignalExtension", "OneSignalOutcomes", "OpenSSL", "OrderedSet", "package_info", "package_info_plus",
        "path_provider", "path_provider_ios", "Promises", "Protobuf", "Reachability", "RealmSwift", "RxCocoa",
        "RxRelay", "RxSwift", "SDWebImage", "share_plus", "shared_preferences_ios", "SnapKit", "sqflite",
        "Starscream", "SVProgressHUD", "SwiftyGif", "SwiftyJSON", "Toast", "UnityFramework", "url_launcher",
        "url_launcher_ios", "video_player_avfoundation", "wakelock", "webview_flutter_wkwebview"
    ]

    /// Lower-cased module name → the list's entry. Apple matches what the SDK is, not how it is
    /// spelled (its mails name `openssl.framework` as "BoringSSL / openssl_grpc"), so names
    /// compare without case.
    private static let byName: [String: String] = {
        var map: [String: String] = [:]
        for entry in names {
            for name in entry.split(separator: "/") {
                map[name.trimmingCharacters(in: .whitespaces).lowercased()] = entry
            }
        }
        return map
    }()

    /// The list's entry a framework, library or bundle named `name` is (`Alamofire.framework`,
    /// `libFMDB.a`, `Lottie.xcframework` → its module name), or nil.
    package static func entry(named name: String) -> String? {
        var module = Substring(name)
        if let dot = module.lastIndex(of: "."),
            ["framework", "xcframework", "a", "dylib", "bundle"].contains(
                module[module.index(after: dot)...].lowercased())
        {
            module = module[..<dot]
        }
        if module.hasPrefix("lib"), name.hasSuffix(".a") || name.hasSuffix(".dylib") { module = module.dropFirst(3) }
        return byName[module.lowercased()]
    }

    /// The list's entry whose resource bundle `name` is, as the package managers name them:
    /// `SDWebImage.bundle` (CocoaPods), `FirebaseCore_Privacy.bundle` (a pod's privacy bundle),
    /// `Alamofire_Alamofire.bundle` (SwiftPM: package, then target).
    package static func entry(ofResourceBundle name: String) -> String? {
        guard name.lowercased().hasSuffix(".bundle") else { return nil }
        let stem = String(name.dropLast(".bundle".count))
        var candidates = [stem]
        if let underscore = stem.lastIndex(of: "_") {
            candidates.append(String(stem[..<underscore]))
            candidates.append(String(stem[stem.index(after: underscore)...]))
        }
        return candidates.lazy.compactMap { byName[$0.lowercased()] }.first
    }

    /// The list's entry an Objective-C class belongs to by its name: the entry's name itself
    /// (`MBProgressHUD`) or the name followed by a capitalised word (`SDWebImageManager`), for
    /// the Objective-C SDKs whose classes carry their name. Other SDKs are Swift (their module
    /// tells them) or prefix their classes otherwise (`FMDatabase` of FMDB, `AF…` of
    /// AFNetworking, `FIR…` of Firebase), and common words (`Toast`, `Charts`, `Reachability`)
    /// would take an app's own classes for the SDK.
    package static func entry(ofObjectiveCClass name: String) -> String? {
        for prefix in objectiveCPrefixes where name.hasPrefix(prefix) {
            guard let next = name.dropFirst(prefix.count).first else { return prefix }
            if next.isUppercase { return prefix }
        }
        return nil
    }

    /// Whether a framework named `module` (bundle identifier `bundleIdentifier`) is `entry`
    /// itself or a framework of the same vendor's family: `OneSignalCore` of `OneSignal`,
    /// `OneSignalInAppMessages` of `OneSignalOutcomes`, `FirebaseAnalytics` of `FirebaseCore` —
    /// its name and the entry's begin with one vendor stem at a word boundary — or one whose
    /// bundle identifier's organisation names that stem (`com.onesignal.OneSignalCore`). An SDK's
    /// code found inside its own vendor's framework is not a copy linked into someone else's.
    package static func isOwnVendorFamily(of entry: String, module: String, bundleIdentifier: String?) -> Bool {
        let organisation = Set((bundleIdentifier ?? "").lowercased().split(separator: ".").dropLast())
        return entryNames(entry).contains { name in
            vendorStems.contains { stem in
                name.hasWordPrefix(stem)
                    && (module.hasWordPrefix(stem) || organisation.contains(Substring(stem.lowercased())))
            }
        }
    }

    /// The names an entry stands for (`BoringSSL / openssl_grpc`: both).
    private static func entryNames(_ entry: String) -> [String] {
        entry.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Every entry's name, and the prefixes one vendor gives the names of its several listed
    /// frameworks (OneSignal; Google's Firebase, GoogleUtilities…, GTM…; Meta's FBSDK…). Kept by
    /// hand: a shared prefix alone does not make one vendor (`SwiftyGif` and `SwiftyJSON`, or the
    /// `flutter_…` plugins, come from different authors).
    private static let vendorStems = Set(names.flatMap(entryNames)).union([
        "OneSignal", "Firebase", "Google", "GTM", "FBSDK"
    ])

    /// Entries' names, a longer one before its own prefix (`OneSignalOutcomes`, `OneSignal`).
    package static let objectiveCPrefixes = [
        "SDWebImage", "MBProgressHUD", "SVProgressHUD", "IQKeyboardManager", "GTMSessionFetcher", "GTMAppAuth",
        "OneSignalOutcomes", "OneSignalExtension", "OneSignalCore", "OneSignal"
    ]
}

extension String {
    /// Whether the string begins with `prefix` (without case) where a word ends: at its end,
    /// before a capital letter (`OneSignal|Core`), or before an underscore when the prefix is
    /// itself snake case (`path_provider|_ios`, but not `Flutter|_local_notifications`: the
    /// engine's name does not make every plugin the engine's).
    fileprivate func hasWordPrefix(_ prefix: String) -> Bool {
        guard count >= prefix.count, lowercased().hasPrefix(prefix.lowercased()) else { return false }
        guard let next = dropFirst(prefix.count).first else { return true }
        return next.isUppercase || (next == "_" && prefix.contains("_"))
    }
}
