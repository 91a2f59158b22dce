import ShipcheckCore

/// ITMS-91053: code that uses a required reason API while no privacy manifest of its bundle
/// declares the API's category with an approved reason. One rule, two inputs: the artifact
/// (`+Bundle`) and the project's app targets (`+Project`).
package enum RequiredReasonAPIRule: Rule {
    /// Read in a bundle and an app target (a file for each).
    package static let inputs: Set<RuleInput> = [.bundle, .privacyProject]

    package static let description = RuleDescription(
        id: "preflight-required-reason-api",
        summary: "Required reason API used without an approved reason in the bundle's privacy manifest (ITMS-91053).",
        rationale: """
            Since May 1, 2024 App Store Connect rejects an upload whose code calls a required reason \
            API — file timestamps (stat, fstat, getattrlist, NSFileModificationDate, …), system boot \
            time (systemUptime, mach_absolute_time), disk space (statfs, \
            NSURLVolumeAvailableCapacityKey, …), active keyboards (activeInputModes), user defaults \
            (NSUserDefaults) — unless a privacy manifest (PrivacyInfo.xcprivacy) of the same bundle \
            declares the category in NSPrivacyAccessedAPITypes with an approved reason: "ITMS-91053: \
            Missing API declaration". In an artifact the APIs are read from each image of the app, \
            its extensions and frameworks (imported symbols, Objective-C selector and class \
            references, Foundation key constants) and the manifests from the same bundle (its \
            resource bundles included); reasons only third-party SDKs may declare (0A2A.1, C56D.1) \
            do not count in an app's own manifest. In a project, the Swift and Objective-C sources of \
            each app target are read against the PrivacyInfo.xcprivacy in its resources. Apple asks \
            this of iOS, iPadOS, tvOS, visionOS and watchOS apps, not macOS ones. The tables and \
            their sources: docs/preflight.md.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-91053: Missing API declaration",
        fix:
            "declare each category the code uses, with the approved reason that fits, in NSPrivacyAccessedAPITypes of the bundle's PrivacyInfo.xcprivacy (for an SDK: a release of it that ships its manifest)",
        triggeringExamples: [
            RuleExample("image Payload/App.app/App arm64 ios 17.0 26.0\n↓import OBJC_CLASS_$_NSUserDefaults"),
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                image Payload/App.app/Frameworks/PIL._imaging.framework/PIL._imaging arm64 ios 13.0 26.5
                ↓import stat fstat PyArg_ParseTuple
                plist Payload/App.app/Frameworks/PIL._imaging.framework/PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryUserDefaults; NSPrivacyAccessedAPITypeReasons = (CA92.1);});}
                """),
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                ↓import OBJC_CLASS_$_NSUserDefaults
                plist Payload/App.app/PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryUserDefaults; NSPrivacyAccessedAPITypeReasons = (C56D.1);});}
                """),
            RuleExample(
                """
                import Foundation
                let booted = ProcessInfo.processInfo.↓systemUptime
                """, path: "App/Clock.swift", companions: ["project.yml": ProjectExamples.appSpec]),
            RuleExample(
                """
                #include <sys/stat.h>
                int modified(const char *path) { struct stat st; return ↓stat(path, &st); }
                """, path: "App/Files.m",
                companions: [
                    "project.yml": ProjectExamples.appSpec,
                    "App/PrivacyInfo.xcprivacy": ProjectExamples.manifest([
                        ("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1"])
                    ])
                ])
        ],
        nonTriggeringExamples: [
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                selector systemUptime
                import mach_absolute_time
                plist Payload/App.app/PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategorySystemBootTime; NSPrivacyAccessedAPITypeReasons = (35F9.1);});}
                """),
            RuleExample(
                """
                image Payload/App.app/App arm64 ios 17.0 26.0
                image Payload/App.app/Frameworks/Kit.framework/Kit arm64 ios 15.0 26.0
                import stat$INODE64 getattrlist
                plist Payload/App.app/Frameworks/Kit.framework/Kit_Kit.bundle/PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryFileTimestamp; NSPrivacyAccessedAPITypeReasons = (0A2A.1);});}
                """),
            RuleExample(
                "kind app\nimage Contents/MacOS/App arm64 macos 14.0 15.0\nimport stat OBJC_CLASS_$_NSUserDefaults"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 17.0 26.0\nimport OBJC_CLASS_$_NSUserDefaults\ndistribution ad-hoc"
            ),
            RuleExample(
                """
                import Foundation
                let booted = ProcessInfo.processInfo.systemUptime
                """, path: "App/Clock.swift",
                companions: [
                    "project.yml": ProjectExamples.appSpec,
                    "App/PrivacyInfo.xcprivacy": ProjectExamples.manifest([
                        ("NSPrivacyAccessedAPICategorySystemBootTime", ["35F9.1"])
                    ])
                ]),
            RuleExample(
                """
                // ProcessInfo.processInfo.systemUptime is not used here
                struct Note { var modificationDate: Date }
                let title = "UserDefaults"
                """, path: "App/Note.swift", companions: ["project.yml": ProjectExamples.appSpec]),
            RuleExample(
                """
                let booted = ProcessInfo.processInfo.systemUptime
                """, path: "Tools/Clock.swift", companions: ["project.yml": ProjectExamples.appSpec])
        ])
}
