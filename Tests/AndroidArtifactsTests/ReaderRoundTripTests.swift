import BinaryInspect
import BinaryReaderCore
import Foundation
import ShipcheckTestSupport
import Testing

@testable import AndroidArtifacts

/// Each reader on bytes the test writers made from a model: read back, the model again, on
/// every fact the examples' text form sets. A decoder that drops or misreads one fails here
/// naming the field (and the rule examples fail with it).
@Suite struct ReaderRoundTripTests {
    /// Manifests that set every fact the readers take, each value in each of its forms.
    static let manifests: [AndroidManifest] = {
        var full = AndroidManifest()
        full.package = "com.example.shipcheck"
        full.versionCode = 2_100_000_000
        full.versionName = "3.1 \"beta\" & more"
        full.minSdk = 24
        full.targetSdkText = "35"
        full.debuggable = true
        full.testOnly = false
        full.extractNativeLibs = false
        full.split = "config.arm64_v8a"
        full.formFactor = .wear
        full.permissions = [
            "android.permission.ACCESS_BACKGROUND_LOCATION", "android.permission.READ_SMS",
            "android.permission.CAMERA", "com.example.partner.permission.SYNC"
        ]
        full.components = [
            .init(kind: .activity, name: ".MainActivity", isExported: true),
            .init(kind: .activityAlias, name: "com.example.shipcheck.Launcher", isExported: false),
            .init(
                kind: .service, name: ".SyncService", isExported: false,
                foregroundServiceTypes: ["dataSync", "location", "specialUse"]),
            .init(
                kind: .service, name: ".PlayerService", isExported: true,
                foregroundServiceTypes: ["mediaPlayback", "microphone", "mediaProcessing"]),
            .init(kind: .receiver, name: ".BootReceiver", isExported: true),
            .init(kind: .provider, name: ".FilesProvider", isExported: false)
        ]
        full.queries = [
            "package:com.example.other", "intent:android.intent.action.VIEW;scheme=https",
            "intent:android.intent.action.SEND", "provider:com.example.other.files"
        ]
        var preview = AndroidManifest()
        preview.targetSdkText = "Baklava"
        preview.debuggable = false
        preview.testOnly = true
        preview.extractNativeLibs = true
        preview.formFactor = .television
        preview.permissions = ["android.permission.QUERY_ALL_PACKAGES"]
        preview.components = [
            .init(kind: .service, name: ".Camera", isExported: false, foregroundServiceTypes: ["camera", "health"]),
            .init(kind: .provider, name: ".Shared", isExported: true)
        ]
        var automotive = AndroidManifest()
        automotive.versionCode = 0
        automotive.formFactor = .automotive
        return [full, preview, automotive, AndroidManifest()]
    }()

    enum Encoding: String, CaseIterable {
        case binaryXML, protobuf, text
    }

    @Test(arguments: Encoding.allCases)
    func manifestReadsBackAsWritten(_ encoding: Encoding) throws {
        for manifest in Self.manifests {
            let root: ManifestElement
            switch encoding {
            case .binaryXML: root = try BinaryXMLReader.read(ManifestWriter.binary(manifest))
            case .protobuf: root = try ProtoXMLReader.read(try ManifestWriter.protobuf(manifest))
            case .text: root = try TextXMLReader.read(ManifestWriter.text(manifest))
            }
            let differences = ReadBack.fields(try AndroidManifest(root), manifest, at: encoding.rawValue)
            #expect(differences.isEmpty, "\(differences)")
        }
    }

    /// The android: attributes of binary and protobuf XML carry the framework's resource IDs
    /// (what the package manager goes by), not only their names.
    @Test func compiledManifestsCarryTheResourceIDs() throws {
        let manifest = Self.manifests[0]
        for root in [
            try BinaryXMLReader.read(ManifestWriter.binary(manifest)),
            try ProtoXMLReader.read(try ManifestWriter.protobuf(manifest))
        ] {
            let application = try #require(root.children(named: "application").first)
            #expect(application.attributes.map(\.resourceID) == [0x0101_000F, 0x0101_0272, 0x0101_04EA])
        }
    }

    @Test func bundleConfigReadsBackAsWritten() throws {
        for alignment in [nil, 4096, 16384, 65536] {
            for uncompressed in [false, true] {
                var config = AndroidArtifact.BundleConfig()
                config.bundletoolVersion = alignment == nil ? nil : "1.18.1"
                config.uncompressNativeLibraries = uncompressed
                config.nativeLibraryAlignment = alignment
                let read = try ProtoXMLReader.bundleConfig(try AndroidExampleWriter.bundleConfig(config))
                let differences = ReadBack.fields(read, config, at: "BundleConfig.pb")
                #expect(differences.isEmpty, "\(differences)")
            }
        }
    }

    /// Stored entries' data where the writer put it, padded through the extra field; deflated
    /// ones are not stored entries.
    @Test func zipDataOffsetsAreWhereTheEntriesWereStored() throws {
        var zip = ZipWriter()
        try zip.deflate("AndroidManifest.xml", ManifestWriter.binary(AndroidManifest()))
        try zip.store("lib/arm64-v8a/libapp.so", [UInt8](repeating: 1, count: 3000), dataOffset: 4096)
        try zip.store("lib/x86_64/libapp.so", [UInt8](repeating: 2, count: 100), dataOffset: 16384)
        try zip.store("lib/armeabi-v7a/libapp.so", [UInt8](repeating: 4, count: 100))
        try zip.deflate("lib/x86/libapp.so", [UInt8](repeating: 3, count: 100))
        let offsets = ZipDataOffsets.storedEntries(in: .memory(Data(zip.bytes))) { $0.hasSuffix(".so") }
        let unpadded = UInt64(16384 + 100 + 30 + "lib/armeabi-v7a/libapp.so".utf8.count)
        #expect(
            offsets == [
                "lib/arm64-v8a/libapp.so": 4096, "lib/x86_64/libapp.so": 16384, "lib/armeabi-v7a/libapp.so": unpadded
            ])
    }

    /// An APK inside an APK set is a zip of its own: its stored libraries' offsets are measured
    /// in it (no rule example stores one there).
    @Test(.needsELF) func apkSetLibrariesKeepTheirOffsets() throws {
        let artifact = try AndroidArtifact(
            example: """
                kind apks
                manifest splits/base-master.apk/AndroidManifest.xml extractNativeLibs=false
                lib splits/base-arm64_v8a.apk/lib/arm64-v8a/libapp.so stored=16384
                lib splits/base-x86_64.apk/lib/x86_64/libapp.so stored=4096
                lib splits/base-x86_64.apk/lib/x86_64/libvendor.so deflated
                """)
        let (read, result) = try ReadBack.read(artifact)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let differences = try ReadBack.differences(#require(read), from: artifact)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// Libraries that state every load fact, in both classes and on each ABI's machine, with
    /// each section-header problem bionic refuses.
    static let libraries: [ELFLoadFacts] = {
        var arm64 = ELFLoadFacts(machine: 183, is64Bit: true)
        arm64.loadSegments = [
            .init(alignment: 0x1000, isExecutable: true), .init(alignment: 0x4000, isWritable: true),
            .init(alignment: 0x10000, isWritable: true, isExecutable: true)
        ]
        arm64.needed = ["libswiftCore.so", "liblog.so", "/home/ci/out/libcore.so"]
        arm64.hasTextRelocations = true
        arm64.debugSections = [.init(name: ".debug_info", size: 4096), .init(name: ".debug_line", size: 100)]
        arm64.androidAPILevel = 24
        var arm = ELFLoadFacts(machine: 40, is64Bit: false)
        arm.loadSegments = [.init(alignment: 0x1000, isExecutable: true), .init(alignment: 0x1000, isWritable: true)]
        arm.needed = ["libc++_shared.so"]
        arm.hasTextRelocations = true
        arm.androidAPILevel = 21
        var x86 = ELFLoadFacts(machine: 3, is64Bit: false, isSharedObject: false)
        x86.loadSegments = [.init(alignment: 0x2000)]
        var problems: [ELFLoadFacts] = []
        for problem: ELFLoadFacts.SectionHeaderProblem in [
            .missing, .entrySize(found: 0, expected: 64), .namesIndex(0), .outsideFile
        ] {
            var facts = ELFLoadFacts(machine: 62, is64Bit: true)
            facts.loadSegments = [.init(alignment: 0x4000, isExecutable: true)]
            facts.needed = ["libm.so"]
            facts.sectionHeaderProblem = problem
            problems.append(facts)
        }
        return [arm64, arm, x86, ELFLoadFacts(machine: 243, is64Bit: true)] + problems
    }()

    @Test(.needsELF, arguments: libraries.indices)
    func elfLoadFactsReadBackAsWritten(_ index: Int) throws {
        let facts = Self.libraries[index]
        let read = try ELFSupport.loadFacts(
            of: FileBytes(copying: ELFLibraryWriter.bytes(facts)), origin: ImageOrigin(path: "libexample.so"))
        let differences = ReadBack.fields(ReadBack.loaderView(read), ReadBack.loaderView(facts), at: "libexample.so")
        #expect(differences.isEmpty, "\(differences)")
    }
}
