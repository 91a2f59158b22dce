import BinaryInspect
import ShipcheckCore

/// ITMS-91061: a commonly used third-party SDK on Apple's list without its privacy manifest: an
/// embedded framework of the list's name, or the SDK's code linked into another image.
package enum SDKPrivacyManifestRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-sdk-privacy-manifest",
        summary:
            "An SDK Apple lists as commonly used, embedded or linked into another image, ships without its PrivacyInfo.xcprivacy (ITMS-91061).",
        rationale: """
            Apple lists commonly used third-party SDKs (Alamofire, Firebase…, Flutter plugins, \
            SDWebImage, … — the list, with its source and date, is in docs/preflight.md); a new app \
            that includes one, or an update that adds one, must ship the SDK's privacy manifest, \
            whatever its version, repackaged copies included: "ITMS-91061: Missing privacy \
            manifest - Your app includes “Frameworks/Alamofire.framework/Alamofire”, which \
            includes Alamofire, an SDK that was identified in the documentation as a commonly used \
            third-party SDK". A framework (or an xcframework's library) whose name is one of the \
            list's, matched without case, must hold a PrivacyInfo.xcprivacy (in the framework or \
            a resource bundle inside it). An SDK linked statically into another image is told by \
            its content, as Apple's mails tell it ("Your app includes \
            “Frameworks/Stipop.framework/Stipop”, which includes OneSignalOutcomes"): a Swift \
            module of the list's name whose types the image defines, or an Objective-C class it \
            defines named for the SDK (SDWebImageManager); code the image only calls into is not \
            the SDK. Its manifest ships in the SDK's resource bundle (SDWebImage.bundle, \
            FirebaseCore_Privacy.bundle, Alamofire_Alamofire.bundle) inside the app or \
            framework; the containing framework's own manifest is not the SDK's — unless that \
            framework is the SDK's vendor's own (OneSignalClient in OneSignalCore, \
            com.onesignal.*: one vendor's frameworks share code), which its own manifest covers. \
            Only for artifacts meant for the App Store.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-91061: Missing privacy manifest",
        fix: "update the SDK to a release that ships PrivacyInfo.xcprivacy inside its framework",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\n↓image Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0"
            ),
            RuleExample("kind xcframework\n↓image ios-arm64/SDWebImage.framework/SDWebImage arm64 ios 12.0 18.0"),
            // Linked into another framework: told by its Swift module, or by its Objective-C classes.
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Stipop.framework/Stipop arm64 ios 13.0 18.0\n↓module Stipop OneSignalOutcomes"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\n↓objc-class AppDelegate SDWebImageManager SDImageCache\nplist Payload/App.app/SDWebImage.bundle/Info.plist {CFBundleIdentifier = org.cocoapods.SDWebImage;}"
            ),
            // One vendor's framework without a manifest of its own.
            RuleExample(
                """
                kind xcframework
                image ios-arm64/OneSignalInAppMessages.framework/OneSignalInAppMessages arm64 ios 12.0 18.0
                ↓objc-class OneSignalInAppMessages OneSignalClient
                """)
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                image Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0
                plist Payload/App.app/Frameworks/Alamofire.framework/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                """),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/AlamofireImage.framework/AlamofireImage arm64 ios 12.0 18.0"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimage Payload/App.app/Frameworks/Alamofire.framework/Alamofire arm64 ios 12.0 18.0\ndistribution ad-hoc"
            ),
            // Linked statically with its resource bundle's manifest; an app that only calls an SDK.
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                module App Alamofire
                plist Payload/App.app/Alamofire_Alamofire.bundle/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                """),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nmodule App\nobjc-class AppDelegate SDWebImageless\nimport OBJC_CLASS_$_SDWebImageManager"
            ),
            // OneSignal 5's xcframeworks: each of the vendor's frameworks defines OneSignal's
            // classes and ships its own manifest (known by its name, or its bundle identifier).
            RuleExample(
                """
                kind xcframework
                image ios-arm64/OneSignalCore.framework/OneSignalCore arm64 ios 12.0 18.0
                objc-class OneSignalClient OneSignalCoreHelper OSRequests
                plist ios-arm64/OneSignalCore.framework/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                """),
            RuleExample(
                """
                kind xcframework
                image ios-arm64/OSNotifications.framework/OSNotifications arm64 ios 12.0 18.0
                objc-class OneSignalNotificationSettings OneSignalOutcomesManager
                plist ios-arm64/OSNotifications.framework/Info.plist {CFBundleIdentifier = com.onesignal.OSNotifications; CFBundleExecutable = OSNotifications;}
                plist ios-arm64/OSNotifications.framework/PrivacyInfo.xcprivacy {NSPrivacyTracking = 0;}
                """)
        ])

    package static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        let embedded = bundle.listedSDKFrameworks.compactMap { framework, entry -> Finding? in
            guard bundle.privacyManifests(of: framework).isEmpty else { return nil }
            let place = framework.executable ?? framework.path
            return bundle.finding(
                description, context.severity, at: place,
                message:
                    "\(bundle.displayName(place)) is \(entry), an SDK Apple lists as commonly used, and it holds no PrivacyInfo.xcprivacy: App Store Connect rejects the upload (ITMS-91061 Missing privacy manifest)",
                fix: "update \(entry) to a release that ships its privacy manifest (\(ListedSDKs.source.url))",
                identity: "listed SDK \(entry)")
        }
        let manifested = Set(bundle.listedSDKResourceBundlesWithManifests)
        let linked = bundle.listedSDKsLinkedIntoOtherImages.compactMap { image, entry, evidence -> Finding? in
            guard !manifested.contains(entry) else { return nil }
            return bundle.finding(
                description, context.severity, at: image.path,
                message:
                    "\(bundle.shown(image)) includes \(entry) (\(evidence)), an SDK Apple lists as commonly used, linked into it, and no resource bundle of \(entry) with a PrivacyInfo.xcprivacy ships with it: App Store Connect rejects the upload (ITMS-91061 Missing privacy manifest)",
                fix:
                    "link a release of \(entry) that ships its privacy manifest in a resource bundle, and copy that bundle into the app (\(ListedSDKs.source.url))",
                identity: "listed SDK \(entry) linked")
        }
        return embedded + linked
    }
}

extension BundleContents {
    /// The frameworks whose name is on Apple's list, with the list's entry (this rule's and
    /// `SDKSignatureRule`'s subjects).
    package var listedSDKFrameworks: [(framework: NestedBundle, entry: String)] {
        bundles.compactMap { bundle in
            guard bundle.role == .framework, let entry = ListedSDKs.entry(named: bundle.name) else { return nil }
            return (bundle, entry)
        }
    }

    /// The listed SDKs whose code an image holds though it is not the SDK's own framework: a
    /// Swift module of the list's name it defines types of, or Objective-C classes named for
    /// the SDK (the first few named as evidence). Each SDK once per image. Code of the SDK's
    /// vendor inside one of that vendor's bundles (`OneSignalClient` in `OneSignalCore`) is the
    /// bundle's own: left out where the bundle ships a manifest, or is listed itself (the
    /// embedded check then judges its manifest).
    package var listedSDKsLinkedIntoOtherImages: [(image: BundleImage, entry: String, evidence: String)] {
        images.flatMap { image -> [(image: BundleImage, entry: String, evidence: String)] in
            let own = image.bundle.flatMap { self.bundle(at: $0) }
            let ownIsJudged = own.map { ListedSDKs.entry(named: $0.name) != nil || !privacyManifests(of: $0).isEmpty }
            func isOwnCode(_ entry: String) -> Bool {
                guard let own, ownIsJudged == true else { return false }
                return ListedSDKs.isOwnVendorFamily(
                    of: entry, module: String(own.name.prefix { $0 != "." }),
                    bundleIdentifier: own.info("CFBundleIdentifier"))
            }
            var found: [(entry: String, module: String?, classes: [String])] = []
            func note(_ entry: String, module: String? = nil, objcClass: String? = nil) {
                guard !isOwnCode(entry) else { return }
                if !found.contains(where: { $0.entry == entry }) { found.append((entry, nil, [])) }
                let index = found.firstIndex { $0.entry == entry }!
                if found[index].module == nil { found[index].module = module }
                if let objcClass, !found[index].classes.contains(objcClass) { found[index].classes.append(objcClass) }
            }
            for slice in image.readSlices {
                for module in slice.definedModules {
                    if let entry = ListedSDKs.entry(named: module) { note(entry, module: module) }
                }
                for objcClass in slice.definedObjCClasses {
                    if let entry = ListedSDKs.entry(ofObjectiveCClass: objcClass) { note(entry, objcClass: objcClass) }
                }
            }
            return found.map { sdk in
                (
                    image, sdk.entry,
                    sdk.module.map { "its Swift module \($0)" } ?? "its Objective-C classes \(sdk.classes.quotedList())"
                )
            }
        }
    }

    /// The listed SDKs whose resource bundle (`SDWebImage.bundle`, `Alamofire_Alamofire.bundle`)
    /// holds a privacy manifest somewhere in the artifact.
    var listedSDKResourceBundlesWithManifests: [String] {
        bundles.compactMap { resources in
            guard resources.role == .plugIn, let entry = ListedSDKs.entry(ofResourceBundle: resources.name),
                privacyManifests.keys.contains(where: { $0.hasPrefix(resources.path + "/") })
            else { return nil }
            return entry
        }
    }
}
