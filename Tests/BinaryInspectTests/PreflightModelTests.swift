import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The model the pre-flight rules read, as the bundle walker builds it from bundles assembled
/// out of the fixtures, and as the example text builds it: the same facts either way. Expected
/// values come from `llvm-objdump --macho --private-headers` / `-s` and `llvm-nm -u` on the
/// fixtures (Tests/Fixtures/macho/README.md).
@Suite struct PreflightModelTests {
    static let appUUID = "4C4C4408-5555-3144-A193-1E219F242530"

    static func xml(_ values: [String: Any]) -> [UInt8] {
        Array(try! PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0))
    }

    static func binary(_ values: [String: Any]) -> [UInt8] {
        Array(try! PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0))
    }

    static var appInfo: [String: Any] {
        [
            "CFBundleExecutable": "App", "CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "2.1",
            "CFBundleVersion": "42", "MinimumOSVersion": "17.0", "NSCameraUsageDescription": "Scans receipts",
            "UIRequiredDeviceCapabilities": ["arm64"]
        ]
    }

    static var manifest: [String: Any] {
        [
            "NSPrivacyTracking": false,
            "NSPrivacyAccessedAPITypes": [
                [
                    "NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategoryFileTimestamp",
                    "NSPrivacyAccessedAPITypeReasons": ["C617.1"]
                ]
            ]
        ]
    }

    /// An iOS app: XML Info.plist, a framework with a binary one, an extension, a watch app with
    /// its own framework, a loose dylib, a resource bundle, privacy manifests (one damaged).
    static func assembleApp(_ tree: BundleAssembler, at folder: String) -> String {
        let app = tree.folder(
            folder,
            files: [
                "App": "macho/App-ios",
                "Frameworks/Core.framework/Core": "macho/libClean.dylib",
                "Frameworks/libswiftCore.dylib": "macho/libAppLib.dylib",
                "PlugIns/Widget.appex/Widget": "macho/App-ios-stripped",
                "Watch/Watch.app/Watch": "macho/App-universal",
                "Watch/Watch.app/Frameworks/Clean.framework/Clean": "bundle/Clean-store-signed",
                "Settings.bundle/Root.plist": "text:" + BundleAssembler.plist([:]),
                "Broken.bundle/PrivacyInfo.xcprivacy": "text:<plist><dict><key>"
            ])
        let directory = tree.directory
        let relative = String(app.dropFirst(directory.path.count + 1))
        directory.write("\(relative)/Info.plist", bytes: xml(appInfo))
        directory.write("\(relative)/PrivacyInfo.xcprivacy", bytes: xml(manifest))
        directory.write(
            "\(relative)/Frameworks/Core.framework/Info.plist",
            bytes: binary([
                "CFBundleExecutable": "Core", "CFBundleIdentifier": "com.example.core", "MinimumOSVersion": "15.0"
            ]))
        directory.write(
            "\(relative)/PlugIns/Widget.appex/Info.plist",
            bytes: xml([
                "CFBundleExecutable": "Widget",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]
            ]))
        return app
    }

    private func read(_ path: String) throws -> (BundleContents, CheckResult) {
        let (contents, result) = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).readBundle(
            at: path)
        return (try #require(contents), result)
    }

    @Test func walkerTiesEveryImageToItsBundleAndReadsBothPlistForms() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        let (model, result) = try read(Self.assembleApp(tree, at: "Shop.app"))
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let roles = model.bundles.map {
            "\($0.path.isEmpty ? "." : $0.path) \($0.role.rawValue) in \($0.container ?? "-")"
        }
        #expect(
            roles == [
                ". app in -", "Broken.bundle bundle in ", "Frameworks/Core.framework framework in ",
                "PlugIns/Widget.appex appex in ",
                "Settings.bundle bundle in ", "Watch/Watch.app watch-app in ",
                "Watch/Watch.app/Frameworks/Clean.framework framework in Watch/Watch.app"
            ])
        let app = try #require(model.mainApplication)
        #expect(app.path.isEmpty && app.executable == "App" && app.infoPlistPath == "Info.plist")
        #expect(
            app.info("CFBundleShortVersionString") == "2.1" && app.info("NSCameraUsageDescription") == "Scans receipts")
        #expect(app.infoPlist["UIRequiredDeviceCapabilities"] == .array([.string("arm64")]))
        let core = try #require(model.bundle(at: "Frameworks/Core.framework"))
        #expect(core.info("CFBundleIdentifier") == "com.example.core", "binary plist read")
        #expect(core.executable == "Frameworks/Core.framework/Core")
        #expect(
            model.bundle(at: "PlugIns/Widget.appex")?.infoPlist["NSExtension"]?["NSExtensionPointIdentifier"]
                == .string("com.apple.widgetkit-extension"))
        #expect(
            model.bundle(at: "Watch/Watch.app")?.executable == "Watch/Watch.app/Watch",
            "named after the bundle without an Info.plist")
        #expect(model.bundle(at: "Settings.bundle")?.executable == nil)

        let images = model.images.map {
            "\($0.path) in \($0.bundle ?? "-")\($0.isBundleExecutable ? " (executable)" : "")"
        }
        #expect(
            images == [
                "App in  (executable)", "Frameworks/Core.framework/Core in Frameworks/Core.framework (executable)",
                "Frameworks/libswiftCore.dylib in ", "PlugIns/Widget.appex/Widget in PlugIns/Widget.appex (executable)",
                "Watch/Watch.app/Frameworks/Clean.framework/Clean in Watch/Watch.app/Frameworks/Clean.framework (executable)",
                "Watch/Watch.app/Watch in Watch/Watch.app (executable)"
            ])
        #expect(
            model.privacyManifests["PrivacyInfo.xcprivacy"]?.value?["NSPrivacyAccessedAPITypes"]?.array?.first?[
                "NSPrivacyAccessedAPITypeReasons"]
                == .array([.string("C617.1")]))
        #expect(model.privacyManifests["PrivacyInfo.xcprivacy"]?.value?["NSPrivacyTracking"] == .boolean(false))
        #expect(
            model.privacyManifests["Broken.bundle/PrivacyInfo.xcprivacy"]
                == .unreadable("the privacy manifest is not a property list"))
    }

    @Test func slicesCarryPlatformVersionsLibrariesSectionsImportsAndSelectors() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        let (model, _) = try read(Self.assembleApp(tree, at: "Shop.app"))
        let slice = try #require(model.image(at: "App")?.slices.first)
        #expect(slice.architecture == "arm64" && slice.isRead && slice.fileType == .executable)
        #expect(slice.platform == .iOS && slice.minimumOS == OSVersion("17.0") && slice.sdk == OSVersion("17.5"))
        #expect(slice.versionCommand == "LC_BUILD_VERSION" && slice.uuid == Self.appUUID)
        #expect(!slice.hasCodeSignature)
        #expect(
            slice.libraries.prefix(4).map { "\($0.dylibLink?.rawValue ?? "?") \($0.name)" } == [
                "load @rpath/XCTest.framework/XCTest", "load @rpath/Testing.framework/Testing",
                "weak @rpath/libXCTestSwiftSupport.dylib", "load /System/Library/Frameworks/SwiftUI.framework/SwiftUI"
            ])
        #expect(slice.segments.map(\.name).contains("__LINKEDIT"))
        #expect(slice.sections.map(\.fullName).contains("__DATA,__objc_selrefs"))
        // llvm-nm -u, without the leading underscore: what the chained fixups bind (not
        // dyld_stub_binder, which llvm-nm lists and dyld never binds beside chained fixups).
        #expect(!slice.importedSymbols.contains("dyld_stub_binder"))
        for name in ["OBJC_CLASS_$_XCTestCase", "objc_msgSend", "swift_allocObject", "$s7SwiftUI15PreviewProviderMp"] {
            #expect(slice.importedSymbols.contains(name), "\(name)")
        }
        #expect(slice.classReferences.contains("XCTestCase"))
        // __objc_selrefs points at init and dealloc; testLoginSucceeds is a method it defines.
        #expect(slice.selectorReferences == ["init", "dealloc"])
        // What it defines: the Swift modules of its types; no Objective-C class of its own.
        #expect(slice.definedModules == ["AppLib", "AppTestSupport"])
        #expect(slice.definedObjCClasses.isEmpty)
        let signed = try #require(model.image(at: "Watch/Watch.app/Frameworks/Clean.framework/Clean")?.slices.first)
        #expect(signed.hasCodeSignature && signed.fileType == .sharedLibrary)
        let watch = try #require(model.image(at: "Watch/Watch.app/Watch"))
        #expect(watch.slices.map(\.architecture) == ["x86_64", "arm64"])
        #expect(watch.slices.map { $0.platform?.name } == ["macos", "macos"])
        // The stripped extension keeps its imports (the symbol table's undefined entries and the fixups).
        #expect(
            model.image(at: "PlugIns/Widget.appex/Widget")?.slices.first?.importedSymbols.contains(
                "OBJC_CLASS_$_XCTestCase") == true)
    }

    /// The same app in the example text: the same bundles, executables and slices.
    @Test func exampleTextBuildsTheModelTheWalkerBuilds() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        let (walked, _) = try read(Self.assembleApp(tree, at: "Shop.app"))
        let example = try BundleContents(
            example: """
                kind app
                plist Info.plist {CFBundleExecutable = App; CFBundleIdentifier = com.example.app; CFBundleShortVersionString = 2.1; CFBundleVersion = 42; MinimumOSVersion = 17.0; NSCameraUsageDescription = "Scans receipts"; UIRequiredDeviceCapabilities = (arm64);}
                plist PrivacyInfo.xcprivacy {NSPrivacyAccessedAPITypes = ({NSPrivacyAccessedAPIType = NSPrivacyAccessedAPICategoryFileTimestamp; NSPrivacyAccessedAPITypeReasons = (C617.1);});}
                plist Broken.bundle/PrivacyInfo.xcprivacy <plist><dict><key>
                image App arm64 ios 17.0 17.5 uuid=\(Self.appUUID) unsigned
                weak-dylib @rpath/libXCTestSwiftSupport.dylib
                import OBJC_CLASS_$_XCTestCase objc_msgSend
                selector init dealloc
                plist Frameworks/Core.framework/Info.plist {CFBundleExecutable = Core; CFBundleIdentifier = com.example.core; MinimumOSVersion = 15.0;}
                image Frameworks/Core.framework/Core arm64 macos 14.0 14.5
                image Frameworks/libswiftCore.dylib arm64 macos 14.0 14.5
                plist PlugIns/Widget.appex/Info.plist {CFBundleExecutable = Widget; NSExtension = {NSExtensionPointIdentifier = com.apple.widgetkit-extension;};}
                image PlugIns/Widget.appex/Widget arm64 ios 17.0 17.5 unsigned
                image Watch/Watch.app/Watch x86_64 macos 14.0 14.5
                image Watch/Watch.app/Watch arm64 macos 14.0 14.5
                image Watch/Watch.app/Frameworks/Clean.framework/Clean arm64 macos 14.0 14.5
                file Settings.bundle/Root.plist
                """, root: walked.root)
        func shape(_ model: BundleContents) -> [String] {
            model.bundles.map {
                "\($0.path)|\($0.role)|\($0.container ?? "-")|\($0.executable ?? "-")|\($0.info("CFBundleIdentifier") ?? "-")"
            }
                + model.images.sorted { $0.path < $1.path }.map { image in
                    "\(image.path)|\(image.bundle ?? "-")|\(image.isBundleExecutable)|"
                        + image.slices.map {
                            "\($0.architecture) \($0.platform?.name ?? "-") \($0.minimumOS?.description ?? "-") \($0.sdk?.description ?? "-") \($0.fileType)"
                        }.joined(separator: ",")
                }
        }
        #expect(shape(example) == shape(walked))
        let app = try #require(example.image(at: "App")?.slices.first)
        #expect(app.uuid == Self.appUUID && !app.hasCodeSignature && app.selectorReferences == ["init", "dealloc"])
        #expect(app.libraries.map(\.dylibLink) == [.weak] && app.classReferences == ["XCTestCase"])
        #expect(
            example.privacyManifests
                == walked.privacyManifests.mapValues { document in
                    // OpenStep text has no booleans: the example's manifest leaves NSPrivacyTracking out.
                    guard case .parsed(.dictionary(var entries)) = document else { return document }
                    entries["NSPrivacyTracking"] = nil
                    return .parsed(.dictionary(entries))
                })
        #expect(example.mainApplication?.infoPlist == walked.mainApplication?.infoPlist)
    }

    @Test func exampleTextRefusesWhatItDoesNotUnderstand() {
        for text in [
            "imagine App arm64", "image App", "import stat", "image App arm64 ios 17", "image App arm64 shiny",
            "plist Info.plist {",
            // What the profile reader tells development from ad-hoc by: get-task-allow.
            "profile embedded.mobileprovision development get-task-allow=false",
            "profile embedded.mobileprovision ad-hoc get-task-allow=true"
        ] {
            #expect(throws: InputError.self, "\(text)") { try BundleContents(example: text) }
        }
    }

    /// A value outside its list is an error naming the line, never a default: a profile of an
    /// unknown kind once became an App Store profile.
    @Test(arguments: [
        "profile Payload/App.app/embedded.mobileprovision appstore",  // an unknown profile kind
        "profile Payload/App.app/embedded.mobileprovision",  // no kind
        "kind ipa app",  // a second value
        "distribution testflight",  // an unknown distribution
        "upload 2026-6-01",  // not YYYY-MM-DD
        "segment __LLVM 12 big",  // a field too many
        "section __LLVM,__bundle 1 2",
        "image Payload/App.app/App arm64 type=plugin",  // an unknown image type
        "entitlements Payload/App.app/App get-task-allow"  // not KEY=VALUE
    ])
    func anUnknownValueIsAnErrorNamingTheLine(_ line: String) {
        #expect {
            try BundleContents(example: "image Payload/App.app/App arm64 ios 17.0 26.0\n\n\(line)")
        } throws: { error in
            (error as? InputError)?.line == 3
        }
    }

    /// Each line declares the path its findings are at; a line adding to a slice, its image's.
    @Test func eachLineDeclaresThePathOfItsFindings() throws {
        let (_, places) = try BundleContents.example(
            """
            kind xcarchive
            image Products/Applications/App.app/App arm64 ios 17.0 26.0
            dylib @rpath/XCTest.framework/XCTest
            file Products/Applications/App.app/Mocks/feed.json
            """)
        func lines(_ inner: String) -> [Int] {
            places.lines(of: .binary(BinaryLocation(path: inner.isEmpty ? "Example.ipa" : "Example.ipa/" + inner)))
        }
        #expect(lines("Products/Applications/App.app/App") == [2, 3])
        #expect(lines("Products/Applications/App.app/Mocks") == [4])
        #expect(lines("Products/Applications/App.app") == [2, 3, 4])
        #expect(lines("") == [1])
    }

    /// An archive's dSYMs: each DWARF file's slices with their UUIDs; nothing else of them is read.
    @Test func archiveListsItsDSYMsWithTheirUUIDs() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        var files = [
            "Info.plist": "text:" + BundleAssembler.plist(["Name": "Shop"]),
            "dSYMs/Shop.app.dSYM/Contents/Resources/DWARF/Shop": "macho/App-ios",
            "dSYMs/Watch.app.dSYM/Contents/Resources/DWARF/Watch": "macho/App-universal"
        ]
        files["Products/Applications/Shop.app/Shop"] = "macho/App-ios"
        let (model, result) = try read(tree.folder("Shop.xcarchive", files: files))
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        #expect(model.bundles.map(\.role) == [.archive, .application])
        #expect(model.mainApplication?.path == "Products/Applications/Shop.app")
        #expect(
            model.debugSymbols.map(\.path) == [
                "dSYMs/Shop.app.dSYM/Contents/Resources/DWARF/Shop",
                "dSYMs/Watch.app.dSYM/Contents/Resources/DWARF/Watch"
            ])
        #expect(model.debugSymbols.first?.uuids.map(\.uuid) == [Self.appUUID])
        #expect(model.debugSymbols.last?.uuids.map(\.architecture) == ["x86_64", "arm64"])
        #expect(model.debugSymbols.first?.bundle == "dSYMs/Shop.app.dSYM")
        #expect(model.images.map(\.path) == ["Products/Applications/Shop.app/Shop"], "dSYMs are not images")
    }

    /// A large app's dSYM passes the 1 GiB a binary may have: in an archive (a folder) it is
    /// mapped and only its load commands are read, whatever its size.
    @Test func archiveDSYMsOfAnySizeAreRead() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        let archive = tree.folder(
            "Big.xcarchive",
            files: [
                "Products/Applications/Big.app/Big": "preflight/Store-ios",
                "dSYMs/Big.app.dSYM/Contents/Resources/DWARF/Big":
                    "preflight/Store-ios.dSYM/Contents/Resources/DWARF/Store-ios"
            ])
        let dwarf = "\(archive)/dSYMs/Big.app.dSYM/Contents/Resources/DWARF/Big"
        let handle = try #require(FileHandle(forWritingAtPath: dwarf))
        try handle.truncate(atOffset: 3 << 29)  // a sparse 1.5 GiB file
        try handle.close()
        let (model, result) = try read(archive)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        #expect(model.debugSymbols.first?.uuids.map(\.uuid) == ["4C4C446B-5555-3144-A100-5BB2D3BF7E9E"])
    }

    /// A slice of a CPU shipcheck does not read (PowerPC) is not decoded, but the model lists it
    /// by its architecture.
    @Test func unreadSlicesAreListedByArchitecture() throws {
        let arm64 = HostileBytes.read(Repository.machOFixture("App-ios"))
        let ppc: [UInt8] = [0xFE, 0xED, 0xFA, 0xCE, 0, 0, 0, 18, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        func big(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let first = 4096, second = 8192
        var fat = [0xCA, 0xFE, 0xBA, 0xBE] + big(2)
        fat += big(18) + big(0) + big(first) + big(ppc.count) + big(12)
        fat += big(0x0100_000C) + big(0) + big(second) + big(arm64.count) + big(12)
        fat += [UInt8](repeating: 0, count: first - fat.count) + ppc
        fat += [UInt8](repeating: 0, count: second - fat.count) + arm64
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        tree.directory.write("Fat.app/Fat", bytes: fat)
        let (model, result) = try read("\(tree.directory.path)/Fat.app")
        #expect(
            result.inputErrors.map(\.message) == ["big-endian ppc (PowerPC) code is not supported (only ARM and Intel)"]
        )
        #expect(
            model.image(at: "Fat")?.slices.map { "\($0.architecture) \($0.isRead)" } == ["arm64 true", "ppc false"])
    }

    @Test func artifactsWithNothingToCheckAreInputErrors() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-model"))
        tree.folder("empty/Payload", files: ["README.txt": "text:nothing"])
        let ipa = tree.zip("empty", to: "Empty.ipa")
        #expect(
            try read(ipa).1.inputErrors.map(\.description) == [
                "\(ipa): error: no Payload/*.app inside: nothing to check (is this an exported .ipa?)"
            ])
        let app = tree.folder(
            "Hollow.app",
            files: [
                "Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "Hollow"]),
                "PlugIns/Share.appex/Info.plist": "text:" + BundleAssembler.plist([:])
            ])
        #expect(
            try read(app).1.inputErrors.map(\.description) == [
                "\(app): error: app without its CFBundleExecutable 'Hollow': nothing to check",
                "\(app)/PlugIns/Share.appex: error: app extension without an executable: nothing to check"
            ])
        let archive = tree.folder("Nothing.xcarchive", files: ["Info.plist": "text:" + BundleAssembler.plist([:])])
        #expect(
            try read(archive).1.inputErrors.map(\.message) == [
                "no product under Products/ (no app, framework or tool was archived): nothing to check"
            ])
    }
}
