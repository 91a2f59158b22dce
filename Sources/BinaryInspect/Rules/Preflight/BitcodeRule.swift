import ShipcheckCore

/// Bitcode (`__LLVM` segment, `__bundle` section) in an image.
package enum BitcodeRule: BundleRule {
    package static let description = RuleDescription(
        id: "preflight-bitcode",
        summary: "An image contains bitcode: an __LLVM,__bundle section (or __LLVM,__bitcode in objects).",
        rationale: """
            Since Xcode 14 the App Store no longer takes bitcode and refuses an app with any \
            image that still carries it (ITMS-90482: "The executable \
            'App.app/Frameworks/OneSignal.framework/OneSignal' contains bitcode") — usually a \
            prebuilt framework from an SDK vendor built with ENABLE_BITCODE. Every slice of every \
            image is read for the sections bitcode lives in: __LLVM,__bundle in linked images (the \
            bitcode bundle, or the one-byte marker of -fembed-bitcode-marker), __LLVM,__bitcode in \
            objects and static libraries. Other __LLVM sections are not bitcode (the Swift \
            compiler leaves __LLVM,__swift_modhash in every object). Binaries given on their own \
            and standalone .xcframeworks are checked too: the bitcode goes wherever they are \
            embedded. Only for artifacts meant for the App Store (bundle.distribution). In a project \
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
                "image Payload/App.app/App arm64 ios 16.0 26.0\nimage Payload/App.app/Frameworks/Vendor.framework/Vendor arm64 ios 12.0 16.0\nsegment __LLVM 524288\nsection __LLVM,__bundle 524288"
            ),
            RuleExample(
                "kind xcframework\nimage ios-arm64/Vendor.framework/Vendor arm64 ios 12.0 16.0\nsection __LLVM,__bundle 1"
            ),
            RuleExample("kind binary\nimage . arm64 ios 12.0 16.0 type=object\nsection __LLVM,__bitcode 1"),
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

    static let checksSingleBinaries = true

    /// Where bitcode lives: the linker's xar bundle, and the compiler's per-object section.
    static let bitcodeSections: Set<String> = ["__bundle", "__bitcode"]

    static func check(_ bundle: BundleContents, _ context: BundleRuleContext) -> [Finding] {
        guard bundle.isForAppStore else { return [] }
        return bundle.images.compactMap { image in
            let carrying = image.readSlices.compactMap { slice -> String? in
                guard
                    let section = slice.sections.first(where: {
                        $0.segment == "__LLVM" && bitcodeSections.contains($0.name)
                    })
                else { return nil }
                return "\(slice.displayName): section \(section.fullName), \(section.size) bytes"
            }
            guard !carrying.isEmpty else { return nil }
            return bundle.finding(
                description, context.severity, at: image.path,
                message:
                    "\(bundle.shown(image)) contains bitcode (\(carrying.joined(separator: "; "))): the App Store refuses it (ITMS-90482)",
                fix:
                    "rebuild it with ENABLE_BITCODE = NO, take a release of it without bitcode, or run xcrun bitcode_strip -r on it",
                identity: "bitcode")
        }
    }
}
