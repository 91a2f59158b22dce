import ShipcheckCore

/// Apple's required reason APIs: the five categories, the approved reasons of each, and the APIs
/// that belong to them, as compiled code references them and as source spells them. An app or
/// SDK whose code uses one must declare the category with an approved reason in its privacy
/// manifest (`NSPrivacyAccessedAPITypes`), or App Store Connect rejects the upload (ITMS-91053).
package enum RequiredReasonAPIs {
    package static let source = DataSource(
        title: "Describing use of required reason API",
        url: "https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api",
        retrieved: "2026-11-26")

    /// One API of the table: one way code reaches a category (`getattrlist` reaches two).
    package struct API: Sendable, Hashable {
        package var categories: [RequiredReasonCategory]
        package var binary: BinaryReference
        package var swift: [SourcePattern]
        package var objectiveC: [SourcePattern]
    }

    package static let apis: [API] = {
        var apis: [API] = []
        func add(
            _ categories: [RequiredReasonCategory], _ binary: BinaryReference, swift: [SourcePattern],
            objc: [SourcePattern]
        ) {
            apis.append(API(categories: categories, binary: binary, swift: swift, objectiveC: objc))
        }
        let timestamp: [RequiredReasonCategory] = [.fileTimestamp], disk: [RequiredReasonCategory] = [.diskSpace]
        // File timestamp. The attribute keys `.creationDate` / `.modificationDate` are words of
        // every model layer, so only their qualified and subscript-key spellings count.
        add(
            timestamp, .constant("NSFileCreationDate"),
            swift: [.qualified(type: "FileAttributeKey", member: "creationDate"), .key("creationDate")],
            objc: [.word("NSFileCreationDate")])
        add(
            timestamp, .constant("NSFileModificationDate"),
            swift: [.qualified(type: "FileAttributeKey", member: "modificationDate"), .key("modificationDate")],
            objc: [.word("NSFileModificationDate")])
        add(
            timestamp, .selector("fileModificationDate"), swift: [.member("fileModificationDate")],
            objc: [.word("fileModificationDate")])
        add(
            timestamp, .constant("NSURLContentModificationDateKey"), swift: [.member("contentModificationDateKey")],
            objc: [.word("NSURLContentModificationDateKey")])
        add(
            timestamp, .constant("NSURLCreationDateKey"), swift: [.member("creationDateKey")],
            objc: [.word("NSURLCreationDateKey")])
        for function in ["stat", "fstat", "fstatat", "lstat", "getattrlistbulk"] {
            add(timestamp, .function(function), swift: [.call(function)], objc: [.call(function)])
        }
        // The 64-bit-inode spellings of the same calls, still exported by libSystem.
        for function in ["stat64", "fstat64", "lstat64"] {
            add(timestamp, .function(function), swift: [.call(function)], objc: [.call(function)])
        }
        // Listed under both file timestamp and disk space: either declaration covers them.
        for function in ["getattrlist", "fgetattrlist", "getattrlistat"] {
            add([.fileTimestamp, .diskSpace], .function(function), swift: [.call(function)], objc: [.call(function)])
        }
        // System boot time.
        add(
            [.systemBootTime], .selector("systemUptime"), swift: [.member("systemUptime")],
            objc: [.word("systemUptime")])
        add(
            [.systemBootTime], .function("mach_absolute_time"), swift: [.call("mach_absolute_time")],
            objc: [.call("mach_absolute_time")])
        // Disk space.
        for (swiftName, constant) in [
            ("volumeAvailableCapacityKey", "NSURLVolumeAvailableCapacityKey"),
            ("volumeAvailableCapacityForImportantUsageKey", "NSURLVolumeAvailableCapacityForImportantUsageKey"),
            ("volumeAvailableCapacityForOpportunisticUsageKey", "NSURLVolumeAvailableCapacityForOpportunisticUsageKey"),
            ("volumeTotalCapacityKey", "NSURLVolumeTotalCapacityKey"),
            ("systemFreeSize", "NSFileSystemFreeSize"),
            ("systemSize", "NSFileSystemSize")
        ] {
            add(disk, .constant(constant), swift: [.member(swiftName)], objc: [.word(constant)])
        }
        for function in ["statfs", "statvfs", "fstatfs", "fstatvfs", "statfs64", "fstatfs64"] {
            add(disk, .function(function), swift: [.call(function)], objc: [.call(function)])
        }
        // Active keyboards, user defaults.
        add(
            [.activeKeyboards], .selector("activeInputModes"), swift: [.member("activeInputModes")],
            objc: [.word("activeInputModes")])
        add(
            [.userDefaults], .objcClass("NSUserDefaults"), swift: [.word("UserDefaults")],
            objc: [.word("NSUserDefaults")])
        return apis
    }()

    private static let byReference: [BinaryReference: API] = Dictionary(
        apis.map { ($0.binary, $0) }, uniquingKeysWith: { first, _ in first })

    /// The table's API a compiled reference is, if any.
    package static func api(for reference: BinaryReference) -> API? { byReference[reference] }
}

/// A category of required reason API (`NSPrivacyAccessedAPIType`) and its approved reasons.
package enum RequiredReasonCategory: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case fileTimestamp = "NSPrivacyAccessedAPICategoryFileTimestamp"
    case systemBootTime = "NSPrivacyAccessedAPICategorySystemBootTime"
    case diskSpace = "NSPrivacyAccessedAPICategoryDiskSpace"
    case activeKeyboards = "NSPrivacyAccessedAPICategoryActiveKeyboards"
    case userDefaults = "NSPrivacyAccessedAPICategoryUserDefaults"

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    package var title: String {
        switch self {
        case .fileTimestamp: "file timestamp"
        case .systemBootTime: "system boot time"
        case .diskSpace: "disk space"
        case .activeKeyboards: "active keyboards"
        case .userDefaults: "user defaults"
        }
    }

    /// Every approved reason code of the category, with what it allows.
    package var reasons: [ApprovedReason] {
        switch self {
        case .fileTimestamp:
            [
                ApprovedReason(
                    "DDA9.1", "display file timestamps to the person using the device (not sent off the device)"),
                ApprovedReason(
                    "C617.1", "timestamps, size or metadata of files in the app, app group or CloudKit container"),
                ApprovedReason("3B52.1", "timestamps, size or metadata of files or folders the user granted access to"),
                ApprovedReason(
                    "0A2A.1", "a third-party SDK's wrapper around the API, used only when the app calls it",
                    sdkOnly: true)
            ]
        case .systemBootTime:
            [
                ApprovedReason("35F9.1", "measure time elapsed between events in the app, or run timers"),
                ApprovedReason("8FFB.1", "compute absolute timestamps of events in the app (UIKit, AVFAudio)"),
                ApprovedReason("3D61.1", "an optional bug report the person chooses to submit")
            ]
        case .diskSpace:
            [
                ApprovedReason("85F4.1", "display disk space to the person using the device (not sent off the device)"),
                ApprovedReason("E174.1", "check there is room to write files, or delete files when space is low"),
                ApprovedReason("7D9E.1", "an optional bug report the person chooses to submit"),
                ApprovedReason("B728.1", "a health research app warning participants that space is low")
            ]
        case .activeKeyboards:
            [
                ApprovedReason("3EC4.1", "a custom keyboard app determining the active keyboards"),
                ApprovedReason("54BD.1", "customize the interface for the active keyboard")
            ]
        case .userDefaults:
            [
                ApprovedReason("CA92.1", "read and write information only the app itself can access"),
                ApprovedReason(
                    "1C8F.1",
                    "read and write information shared with the apps, extensions and App Clips of the same app group"),
                ApprovedReason(
                    "C56D.1", "a third-party SDK's wrapper around the API, used only when the app calls it",
                    sdkOnly: true),
                ApprovedReason("AC6B.1", "read the managed app configuration MDM set, or write feedback for it")
            ]
        }
    }

    /// The category of a reason code, when the code exists at all.
    package static func category(ofReason code: String) -> RequiredReasonCategory? {
        allCases.first { category in category.reasons.contains { $0.code == code } }
    }
}

/// One approved reason of a category.
package struct ApprovedReason: Sendable, Hashable {
    package var code: String
    package var summary: String
    /// Only third-party SDKs may declare it ("This reason can only be declared by third-party SDKs").
    package var sdkOnly: Bool

    init(_ code: String, _ summary: String, sdkOnly: Bool = false) {
        self.code = code
        self.summary = summary
        self.sdkOnly = sdkOnly
    }
}
