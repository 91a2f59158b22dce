import ShipcheckCore

/// Bitcode (`__LLVM` segment, `__bundle` section) in an image: an error in a linked image, a
/// note in a static library or object (the linker drops it). One rule, two inputs: the artifact
/// (`+Bundle`) and the project's release build settings (`+BuildSettings`).
package enum BitcodeRule: Rule {
    /// Read in a bundle and build settings (a file for each).
    package static let inputs: Set<RuleInput> = [.bundle, .buildSetting]

    package static let description = RuleDescription(
        id: "preflight-bitcode",
        summary:
            "A linked image contains bitcode (an __LLVM,__bundle section); in a static library (__LLVM,__bitcode) it is a note.",
        rationale: """
            Since Xcode 14 the App Store no longer takes bitcode and refuses an app with any \
            linked image that still carries it (ITMS-90482: "The executable \
            'App.app/Frameworks/OneSignal.framework/OneSignal' contains bitcode") — usually a \
            prebuilt dynamic framework from an SDK vendor built with ENABLE_BITCODE. Every slice of \
            every image is read for the sections bitcode lives in: __LLVM,__bundle in linked \
            images (executables, dylibs, bundles: the bitcode bundle, or the one-byte marker of \
            -fembed-bitcode-marker) is the error. __LLVM,__bitcode in objects and static libraries \
            (a static .framework or .xcframework, a .a) is only a note: the linker keeps it only \
            when it writes a bitcode bundle, which Xcode 14 and later never do, so it never \
            reaches the App Store (it only makes the library larger). Other __LLVM sections are \
            not bitcode (the Swift compiler leaves __LLVM,__swift_modhash in every object). \
            Binaries given on their own and standalone .xcframeworks are checked too: the bitcode \
            goes wherever they are embedded. Only for artifacts meant for the App Store (bundle.distribution). In a project \
            (`audit`) the same rule reads ENABLE_BITCODE = YES in release configurations \
            (project.pbxproj, .xcconfig, XcodeGen) and -embed-bitcode / -fembed-bitcode in a \
            Package.swift's release settings.
            """,
        defaultSeverity: .error,
        storeRejection: "ITMS-90482: Invalid Executable (contains bitcode)",
        fix:
            "rebuild the framework with ENABLE_BITCODE = NO (or take its vendor's release without bitcode), or strip it with xcrun bitcode_strip -r",
        triggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/Vendor.framework/Vendor arm64 ios 12.0 16.0\nsegment __LLVM 524288\n↓section __LLVM,__bundle 524288"
            ),
            RuleExample(
                "kind xcframework\nimage ios-arm64/Vendor.framework/Vendor arm64 ios 12.0 16.0\n↓section __LLVM,__bundle 1"
            ),
            // A static library: a note, not an error.
            RuleExample("kind binary\nimage . arm64 ios 12.0 16.0 type=object\n↓«note»section __LLVM,__bitcode 1"),
            // In the project (`audit`): the build settings that make bitcode.
            RuleExample(
                "↓ENABLE_BITCODE = YES", path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                "name: App\ntargets:\n  App:\n    type: application\n    settings:\n      configs:\n        Release:\n          ↓ENABLE_BITCODE: true\n",
                path: "project.yml"),
            RuleExample(
                ".target(name: \"Core\", cSettings: [↓.unsafeFlags([\"-fembed-bitcode\"])])", path: "Package.swift")
        ],
        nonTriggeringExamples: [
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nsegment __TEXT 65536\nsection __TEXT,__text 60000\nsegment __LINKEDIT 4096"
            ),
            RuleExample(
                "image Payload/App.app/App arm64 ios 16.0 26.0\nsection __LLVM,__bundle 1\ndistribution enterprise"),
            RuleExample(
                "kind binary\nimage . arm64 ios 16.0 26.0 type=object\nsegment __LLVM 16\nsection __LLVM,__swift_modhash 16"
            ),
            RuleExample(
                "ENABLE_BITCODE = NO", path: "Config/Release.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Release: Config/Release.xcconfig\n"
                ]),
            RuleExample(
                "ENABLE_BITCODE = YES", path: "Config/Debug.xcconfig",
                companions: [
                    "project.yml":
                        "name: App\ntargets:\n  App:\n    type: application\n    configFiles:\n      Debug: Config/Debug.xcconfig\n"
                ])
        ])
}
