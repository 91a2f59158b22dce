import ShipcheckCore

/// The APIs that need a purpose string (`NS…UsageDescription`) in the app's Info.plist, and
/// how compiled code and source reach them. Apple's upload check reads what the binaries
/// reference — also in SDKs the app never calls into — and mails ITMS-90683 when the key is
/// missing ("If you're using external libraries or SDKs, they may reference APIs that require
/// a purpose string. While your app might not use these APIs, a purpose string is still
/// required"), ITMS-90738 when its value is empty.
package enum PurposeStrings {
    /// The table as a whole; each row names the key's own page (`Requirement.source`).
    package static let source = DataSource(
        title: "Requesting access to protected resources; the Information Property List key of each row",
        url: "https://developer.apple.com/documentation/uikit/requesting-access-to-protected-resources",
        retrieved: "2026-11-26")

    /// One way code reaches a protected resource, and the keys that may describe it (the first
    /// is the one to add; any of them satisfies the store, as when one call serves both
    /// calendars and reminders).
    package struct Requirement: Sendable, Hashable {
        package var keys: [String]
        /// What is protected: "the camera".
        package var resource: String
        /// All of these, referenced by one image.
        package var binary: [BinaryReference]
        /// All of these, in one Swift file (empty: not recognised in Swift source).
        package var swift: [SourcePattern]
        /// All of these, in one Objective-C or C file (empty: not recognised there).
        package var objectiveC: [SourcePattern]

        /// The key's page in Apple's Information Property List reference.
        package var source: String {
            "https://developer.apple.com/documentation/bundleresources/information-property-list/\(keys[0].lowercased())"
        }
    }

    package static let requirements: [Requirement] = {
        var rows: [Requirement] = []
        func add(
            _ keys: [String], _ resource: String, _ binary: [BinaryReference], swift: [SourcePattern],
            objc: [SourcePattern]
        ) {
            rows.append(Requirement(keys: keys, resource: resource, binary: binary, swift: swift, objectiveC: objc))
        }
        /// A class whose every use needs the key.
        func type(_ keys: [String], _ resource: String, _ name: String, swiftName: String? = nil) {
            add(keys, resource, [.objcClass(name)], swift: [.word(swiftName ?? name)], objc: [.word(name)])
        }
        /// A method of a class (selector as compiled, Swift base name as written).
        func method(_ keys: [String], _ resource: String, _ className: String, _ selector: String, swift: String) {
            let objcName = String(selector.prefix { $0 != ":" })
            add(
                keys, resource, [.objcClass(className), .selector(selector)],
                swift: [.word(className), .member(swift)], objc: [.word(className), .word(objcName)])
        }
        let camera = ["NSCameraUsageDescription"], microphone = ["NSMicrophoneUsageDescription"]
        add(
            camera, "the camera", [.objcClass("AVCaptureDevice"), .constant("AVMediaTypeVideo")],
            swift: [.word("AVCaptureDevice"), .member("video")],
            objc: [.word("AVCaptureDevice"), .word("AVMediaTypeVideo")])
        type(camera, "the camera", "AVCapturePhotoOutput")
        type(camera, "the camera", "VNDocumentCameraViewController")
        add(
            camera, "the camera", [.swiftType(module: "VisionKit", name: "DataScannerViewController")],
            swift: [.word("DataScannerViewController")], objc: [])
        add(
            microphone, "the microphone", [.objcClass("AVCaptureDevice"), .constant("AVMediaTypeAudio")],
            swift: [.word("AVCaptureDevice"), .member("audio")],
            objc: [.word("AVCaptureDevice"), .word("AVMediaTypeAudio")])
        type(microphone, "the microphone", "AVAudioRecorder")
        add(
            microphone, "the microphone", [.selector("requestRecordPermission:")],
            swift: [.member("requestRecordPermission")], objc: [.word("requestRecordPermission")])
        add(
            microphone, "the microphone", [.selector("requestRecordPermissionWithCompletionHandler:")], swift: [],
            objc: [.word("requestRecordPermissionWithCompletionHandler")])
        let photos = ["NSPhotoLibraryUsageDescription"],
            photosOrAdd = ["NSPhotoLibraryAddUsageDescription", "NSPhotoLibraryUsageDescription"]
        add(
            photos, "the photo library", [.objcClass("PHPhotoLibrary"), .selector("requestAuthorization:")], swift: [],
            objc: [.word("PHPhotoLibrary"), .word("requestAuthorization")])
        // The access level (read-write or add-only) is an argument: either key answers it.
        add(
            photosOrAdd, "the photo library",
            [.objcClass("PHPhotoLibrary"), .selector("requestAuthorizationForAccessLevel:handler:")],
            swift: [.word("PHPhotoLibrary"), .member("requestAuthorization")],
            objc: [.word("requestAuthorizationForAccessLevel")])
        method(photos, "the photo library", "PHAsset", "fetchAssetsWithOptions:", swift: "fetchAssets")
        add(
            photos, "the photo library", [.objcClass("PHAsset"), .selector("fetchAssetsWithMediaType:options:")],
            swift: [], objc: [.word("PHAsset"), .word("fetchAssetsWithMediaType")])
        type(photos, "the photo library", "ALAssetsLibrary")
        for function in ["UIImageWriteToSavedPhotosAlbum", "UISaveVideoAtPathToSavedPhotosAlbum"] {
            add(
                photosOrAdd, "adding to the photo library", [.function(function)], swift: [.call(function)],
                objc: [.call(function)])
        }
        type(photosOrAdd, "adding to the photo library", "PHAssetChangeRequest")
        let whenInUse = ["NSLocationWhenInUseUsageDescription"],
            always = ["NSLocationAlwaysAndWhenInUseUsageDescription"]
        method(
            whenInUse, "location when in use", "CLLocationManager", "requestWhenInUseAuthorization",
            swift: "requestWhenInUseAuthorization")
        // Asking for Always needs both keys.
        method(
            always, "location always", "CLLocationManager", "requestAlwaysAuthorization",
            swift: "requestAlwaysAuthorization")
        method(
            whenInUse, "location always", "CLLocationManager", "requestAlwaysAuthorization",
            swift: "requestAlwaysAuthorization")
        let contacts = ["NSContactsUsageDescription"]
        type(contacts, "contacts", "CNContactStore")
        add(
            contacts, "contacts", [.function("ABAddressBookCreateWithOptions")],
            swift: [.call("ABAddressBookCreateWithOptions")], objc: [.call("ABAddressBookCreateWithOptions")])
        // One call for events and reminders alike (the entity type is an argument).
        method(
            [
                "NSCalendarsFullAccessUsageDescription", "NSCalendarsUsageDescription",
                "NSRemindersFullAccessUsageDescription", "NSRemindersUsageDescription"
            ],
            "calendars or reminders", "EKEventStore", "requestAccessToEntityType:completion:", swift: "requestAccess")
        method(
            ["NSCalendarsFullAccessUsageDescription"], "calendars", "EKEventStore",
            "requestFullAccessToEventsWithCompletion:", swift: "requestFullAccessToEvents")
        method(
            ["NSCalendarsWriteOnlyAccessUsageDescription", "NSCalendarsFullAccessUsageDescription"],
            "adding calendar events",
            "EKEventStore", "requestWriteOnlyAccessToEventsWithCompletion:", swift: "requestWriteOnlyAccessToEvents")
        method(
            ["NSRemindersFullAccessUsageDescription"], "reminders", "EKEventStore",
            "requestFullAccessToRemindersWithCompletion:", swift: "requestFullAccessToReminders")
        let bluetooth = ["NSBluetoothAlwaysUsageDescription"]
        type(bluetooth, "Bluetooth", "CBCentralManager")
        type(bluetooth, "Bluetooth", "CBPeripheralManager")
        method(
            ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"], "health data", "HKHealthStore",
            "requestAuthorizationToShareTypes:readTypes:completion:", swift: "requestAuthorization")
        type(["NSMotionUsageDescription"], "motion and fitness activity", "CMMotionActivityManager")
        type(["NSMotionUsageDescription"], "motion and fitness activity", "CMPedometer")
        method(
            ["NSSpeechRecognitionUsageDescription"], "speech recognition", "SFSpeechRecognizer",
            "requestAuthorization:", swift: "requestAuthorization")
        method(
            ["NSFaceIDUsageDescription"], "Face ID", "LAContext", "evaluatePolicy:localizedReason:reply:",
            swift: "evaluatePolicy")
        method(
            ["NSAppleMusicUsageDescription"], "the media library", "MPMediaLibrary", "requestAuthorization:",
            swift: "requestAuthorization")
        type(["NSAppleMusicUsageDescription"], "the media library", "MPMediaQuery")
        method(
            ["NSUserTrackingUsageDescription"], "tracking", "ATTrackingManager",
            "requestTrackingAuthorizationWithCompletionHandler:", swift: "requestTrackingAuthorization")
        type(["NFCReaderUsageDescription"], "NFC tags", "NFCNDEFReaderSession")
        type(["NFCReaderUsageDescription"], "NFC tags", "NFCTagReaderSession")
        type(["NSHomeKitUsageDescription"], "HomeKit", "HMHomeManager")
        let localNetwork = ["NSLocalNetworkUsageDescription"]
        type(localNetwork, "the local network", "NSNetServiceBrowser", swiftName: "NetServiceBrowser")
        add(
            localNetwork, "the local network", [.function("DNSServiceBrowse")], swift: [.call("DNSServiceBrowse")],
            objc: [.call("DNSServiceBrowse")])
        add(
            localNetwork, "the local network", [.swiftType(module: "Network", name: "NWBrowser")],
            swift: [.word("NWBrowser")], objc: [])
        method(
            ["NSSiriUsageDescription"], "Siri", "INPreferences", "requestSiriAuthorization:",
            swift: "requestSiriAuthorization")
        return rows
    }()
}
