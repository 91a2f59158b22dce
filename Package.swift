// swift-tools-version: 6.2
import PackageDescription

let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// Every target but the two that own unsafe code (`ScanEngine`, and `BinaryReaderCore`: the
/// mapped file, checked image views, libelf and demangler calls), the engine's tests (which call
/// the unsafe entry points they test) and the C shims: the compiler checks
/// memory safety, and an unsafe construct is an error, not a warning, so it cannot creep in
/// (docs/architecture.md, "Where unsafe code lives").
let memorySafeSwift6: [SwiftSetting] =
    strictSwift6 + [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]

let package = Package(
    name: "shipcheck",
    platforms: [.macOS(.v15)],
    // What a user depends on: the command and the two plugins. The modules are not offered as
    // libraries (their API is the command line's, and changes with it); the one library product
    // exists because a separate package needs it: the fuzz entry points, for the sanitizer-built
    // driver in Fuzz/ (not an API).
    products: [
        .executable(name: "shipcheck", targets: ["shipcheck"]),
        .library(name: "ShipcheckHostileInputTargets", targets: ["HostileInputTargets"]),
        .plugin(name: "ShipcheckAudit", targets: ["ShipcheckAudit"]),
        .plugin(name: "ShipcheckBuildTool", targets: ["ShipcheckBuildTool"])
    ],
    // ELF support needs libelf: on by default where libelf is (Linux); `swift build
    // --disable-default-traits` leaves it out. Mach-O support is always built.
    traits: [
        .trait(name: "ELF", description: "Read ELF binaries through libelf (Linux: Debian's libelf-dev)."),
        .default(enabledTraits: ["ELF"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // .ipa files (zips) read entry by entry, without extracting them.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // BER/DER for the CMS envelope of provisioning profiles.
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // aapt2's protobuf XML (App Bundle manifests) and bundletool's BundleConfig.pb; the
        // generated code is committed (scripts/generate-protos.sh), so no protoc plugin runs in
        // the build. Exact: generated code and runtime must be the same release.
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0")
    ],
    targets: [
        // memmem and the SIMD prefilter for the byte-search hot loops (ScanEngine).
        .target(name: "CByteSearch"),
        // PCRE2 with its JIT, the regular-expression engine (docs/regex-engine.md): Debian's
        // libpcre2-dev, Homebrew's pcre2.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // The scan engine: listing, reading, the read pass, per-thread buffers, lending, counters,
        // threads, byte search and matching, byte output, subprocesses, atomic writes. The one
        // place besides the binary readers where unsafe pointers are allowed; everything else
        // gets safe calls.
        .target(name: "ScanEngine", dependencies: ["CByteSearch", "CPCRE2"], swiftSettings: strictSwift6),
        // Shared core: findings, locations, rules, reporters, configuration, the scan's finish.
        .target(
            name: "ShipcheckCore",
            dependencies: ["ScanEngine", .product(name: "Yams", package: "Yams")],
            swiftSettings: memorySafeSwift6
        ),
        // Xcode build settings: project.pbxproj, .xcconfig (with #include) and XcodeGen project.yml,
        // with the file and line of every setting (the source scanner and the build-settings audit).
        .target(
            name: "XcodeProject",
            dependencies: ["ScanEngine", "ShipcheckCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: previews and development-only code must be DEBUG-only.
        .target(
            name: "SourceScan",
            dependencies: [
                "ScanEngine",
                "ShipcheckCore",
                "XcodeProject",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
                .product(name: "SwiftLexicalLookup", package: "swift-syntax")
            ],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: merge-conflict markers.
        .target(name: "ConflictScan", dependencies: ["ScanEngine", "ShipcheckCore"], swiftSettings: memorySafeSwift6),
        // Capability: saved-query bookmarks.
        .target(name: "SavedQueries", dependencies: ["ScanEngine", "ShipcheckCore"], swiftSettings: memorySafeSwift6),
        // libelf from Debian's libelf-dev (Homebrew's libelf where someone builds the ELF trait on a Mac).
        .systemLibrary(
            name: "CLibELF",
            pkgConfig: "libelf",
            providers: [.apt(["libelf-dev"]), .brew(["libelf"])]
        ),
        // __cxa_demangle: libstdc++ on Linux, libc++abi (in libc++) on macOS.
        .target(
            name: "CDemangle",
            linkerSettings: [
                .linkedLibrary("stdc++", .when(platforms: [.linux, .android])),
                .linkedLibrary("c++", .when(platforms: [.macOS]))
            ]
        ),
        // The binary readers' core, the one place besides the scan engine where they touch memory
        // directly: the mapped file and the checked `ImageBytes` views every reader reads through,
        // the libelf calls, the demangler shim. BinaryInspect reads only through its safe calls.
        .target(
            name: "BinaryReaderCore",
            dependencies: [
                "ScanEngine", "ShipcheckCore", "CDemangle",
                .target(name: "CLibELF", condition: .when(platforms: [.linux, .android], traits: ["ELF"]))
            ],
            swiftSettings: strictSwift6
        ),
        // Capability: symbols and leaked preview / test code in ELF and Mach-O binaries, and the
        // Apple bundles that carry them (.app, .framework, .xcframework, .xcarchive, .ipa). The
        // ELF reader is built with the ELF trait on Linux (macOS builds read Mach-O only).
        .target(
            name: "BinaryInspect",
            dependencies: [
                "ScanEngine", "BinaryReaderCore",
                "ShipcheckCore", "CDemangle",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .target(name: "CLibELF", condition: .when(platforms: [.linux, .android], traits: ["ELF"]))
            ],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: Android release artifacts (.apk, .aab, .apks, .aar, ABI folders of .so files):
        // the manifests in their three encodings, BundleConfig.pb, and the loader's rules, on
        // BinaryInspect's ELF reader and zip streaming (Google Play's rules are StorePreflight's).
        .target(
            name: "AndroidArtifacts",
            dependencies: [
                "BinaryReaderCore",
                "ScanEngine", "ShipcheckCore", "BinaryInspect",
                .product(name: "SwiftProtobuf", package: "swift-protobuf")
            ],
            exclude: ["Protos/android_bundle.proto"],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: the release audit's own checks (build settings, archive breakers) and
        // baselines.
        .target(
            name: "ReleaseAudit",
            dependencies: [
                "ScanEngine",
                "ShipcheckCore", "SourceScan", "XcodeProject",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftLexicalLookup", package: "swift-syntax")
            ],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: store pre-flight, what App Store Connect and Google Play refuse, in one place:
        // AppStore/ and GooglePlay/ hold each store's artifact rules and their dated data tables
        // (on BinaryInspect's bundle model and AndroidArtifacts' model; the readers run them as
        // the registry hands them over), Project/ the App Store rules also read in projects (their
        // build-settings sides, the privacy declarations check and its source API scanner).
        .target(
            name: "StorePreflight",
            dependencies: [
                "ScanEngine", "ShipcheckCore", "XcodeProject", "BinaryInspect", "AndroidArtifacts", "ReleaseAudit"
            ],
            swiftSettings: memorySafeSwift6
        ),
        // Capability: what a release changes since the previous one (`shipcheck diff`, and
        // `--previous`): both releases' facts compared, and the store rules only a comparison
        // can check.
        .target(
            name: "ReleaseDiff",
            dependencies: [
                "BinaryReaderCore", "ScanEngine", "ShipcheckCore", "StorePreflight", "BinaryInspect", "AndroidArtifacts"
            ],
            swiftSettings: memorySafeSwift6
        ),
        // The library side of the command line: the one rule registry and one entry point per
        // subcommand (the audit's checks in one scan, baselines, query runs, binary targets).
        .target(
            name: "ShipcheckFrontend",
            dependencies: [
                "BinaryReaderCore",
                "ScanEngine",
                "ShipcheckCore", "SourceScan", "ConflictScan", "SavedQueries", "BinaryInspect", "ReleaseAudit",
                "StorePreflight", "AndroidArtifacts", "ReleaseDiff"
            ],
            swiftSettings: memorySafeSwift6
        ),
        // Thin command-line front end: one file per subcommand, each parsing its options and
        // calling one ShipcheckFrontend entry point.
        .executableTarget(
            name: "shipcheck",
            dependencies: [
                "ScanEngine",
                "ShipcheckCore", "ShipcheckFrontend", "ConflictScan", "SavedQueries", "BinaryInspect", "ReleaseDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: memorySafeSwift6,
            plugins: ["ShipcheckBuildInfo"]
        ),
        // Shared by every test target: temp dirs, git fixtures, the real-binary runner, rule examples.
        .target(
            name: "ShipcheckTestSupport",
            dependencies: ["ScanEngine", "ShipcheckCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Tests/ShipcheckTestSupport", swiftSettings: memorySafeSwift6),
        // Fuzz entry points (one per reader): driven by Fuzz/ under libFuzzer, replayed by `make test`
        // on every input kept in Tests/Fixtures/fuzz-regressions/.
        .target(
            name: "HostileInputTargets",
            dependencies: [
                "ScanEngine",
                "ShipcheckCore", "ShipcheckFrontend", "SourceScan", "ConflictScan", "BinaryInspect", "XcodeProject",
                "StorePreflight", "AndroidArtifacts",
                .product(name: "SwiftSyntax", package: "swift-syntax")
            ],
            path: "Tests/HostileInputTargets",
            swiftSettings: memorySafeSwift6
        ),
        // `swift package shipcheck`: runs `shipcheck audit` on a package.
        .plugin(
            name: "ShipcheckAudit",
            capability: .command(
                intent: .custom(verb: "shipcheck", description: "Run the shipcheck release audit on this package"),
                permissions: [
                    // macOS runs plugins in a sandbox that refuses writes outside their work
                    // folder: the report (--output) and the baseline (--write-baseline) go into
                    // the package. SwiftPM asks once, or takes --allow-writing-to-package-directory.
                    .writeToPackageDirectory(
                        reason:
                            "shipcheck audit writes its report (--output) and baseline (--write-baseline) into the package"
                    )
                ]
            ),
            dependencies: ["shipcheck"]
        ),
        // Build-tool plugin: `shipcheck sources` on a target's Swift files, findings as compiler warnings.
        .plugin(name: "ShipcheckBuildTool", capability: .buildTool(), dependencies: ["shipcheck"]),
        // Records the git revision for `shipcheck --version` (a prebuild command, see its source).
        .plugin(name: "ShipcheckBuildInfo", capability: .buildTool()),
        .testTarget(
            name: "ScanEngineTests", dependencies: ["ScanEngine", "ShipcheckTestSupport"],
            swiftSettings: strictSwift6),
        .testTarget(
            name: "ShipcheckCoreTests", dependencies: ["ScanEngine", "ShipcheckCore", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "XcodeProjectTests", dependencies: ["ScanEngine", "XcodeProject", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "SourceScanTests",
            dependencies: ["ScanEngine", "SourceScan", "ShipcheckFrontend", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "ConflictScanTests",
            dependencies: ["ScanEngine", "ConflictScan", "ShipcheckFrontend", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "SavedQueriesTests",
            dependencies: ["ScanEngine", "SavedQueries", "ShipcheckFrontend", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "BinaryInspectTests",
            dependencies: [
                "BinaryReaderCore", "ScanEngine", "BinaryInspect", "ReleaseDiff", "ShipcheckFrontend",
                "ShipcheckTestSupport"
            ],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "AndroidArtifactsTests",
            dependencies: [
                "BinaryReaderCore",
                "ScanEngine", "AndroidArtifacts", "BinaryInspect", "ShipcheckFrontend", "ReleaseDiff",
                "ShipcheckTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The rule examples' App Bundle manifests and BundleConfig.pb are written with it.
                .product(name: "SwiftProtobuf", package: "swift-protobuf")
            ],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "StorePreflightTests",
            dependencies: [
                "ScanEngine", "StorePreflight", "ShipcheckCore", "BinaryInspect", "AndroidArtifacts",
                "ShipcheckFrontend", "ShipcheckTestSupport"
            ],
            swiftSettings: memorySafeSwift6),
        .testTarget(
            name: "ReleaseAuditTests",
            dependencies: ["ScanEngine", "ReleaseAudit", "StorePreflight", "ShipcheckFrontend", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        // The previous-release rules' examples, the comparison and the finding matching.
        .testTarget(
            name: "ReleaseDiffTests",
            dependencies: ["ScanEngine", "ReleaseDiff", "ShipcheckFrontend", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        // The registry, the single scan of the audit (a test counts its reads) and the entry points.
        .testTarget(
            name: "ShipcheckFrontendTests",
            dependencies: ["ScanEngine", "BinaryInspect", "ShipcheckFrontend", "SavedQueries", "ShipcheckTestSupport"],
            swiftSettings: memorySafeSwift6),
        // Runs the real `shipcheck` binary: exit codes, formats, bad input.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ScanEngine", "ShipcheckCore", "ShipcheckTestSupport", "HostileInputTargets",
                .product(name: "ZIPFoundation", package: "ZIPFoundation")
            ],
            swiftSettings: memorySafeSwift6),
        // The release packaging (scripts/package.sh on the debug binary), the plugins on it, the CI templates.
        .testTarget(
            name: "DistributionTests",
            dependencies: [
                "ScanEngine", "ShipcheckCore", "ShipcheckTestSupport", .product(name: "Yams", package: "Yams")
            ],
            swiftSettings: memorySafeSwift6
        )
    ]
)
