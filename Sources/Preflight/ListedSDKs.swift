import Foundation

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

    /// Entries' names, a longer one before its own prefix (`OneSignalOutcomes`, `OneSignal`).
    package static let objectiveCPrefixes = [
        "SDWebImage", "MBProgressHUD", "SVProgressHUD", "IQKeyboardManager", "GTMSessionFetcher", "GTMAppAuth",
        "OneSignalOutcomes", "OneSignalExtension", "OneSignalCore", "OneSignal"
    ]
}
