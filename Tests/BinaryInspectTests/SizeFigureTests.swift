import BinaryInspect
import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The sizes the readers record while they walk an artifact — each zip entry's compressed and
/// uncompressed size, each file's size in a folder, each Mach-O segment's file and memory size
/// and each section's size, each ELF section's and `PT_LOAD`'s — equal what the reference tools
/// print for the same files, run live (ReferenceSizes): what a release adds is measured exactly.
@Suite struct SizeFigureTests {
    static let inspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)

    static func rows(_ sizes: [String: EntrySize]) -> [String] {
        ReferenceSizes.rows(sizes.mapValues { .init(compressed: $0.compressed, uncompressed: $0.uncompressed) })
    }

    private func read(_ path: String) throws -> BundleContents {
        try #require(Self.inspector.readBundle(at: path).contents)
    }

    @Test func zipEntriesHaveUnzipsSizesStoredAndDeflated() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-sizes"))
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let plist = Array(
            BundleAssembler.plist(["CFBundleExecutable": "App", "CFBundleIdentifier": "com.example.app"]).utf8)
        let executable = Array(FileManager.default.contents(atPath: BundleAssembler.fixture("macho/App-ios"))!)
        let path = try tree.zip(
            entries: [
                ("Payload/", [], true), ("Payload/App.app/", [], true),
                ("Payload/App.app/Info.plist", plist, false),
                ("Payload/App.app/App", executable, true),
                // Random bytes deflate to more than they are.
                ("Payload/App.app/noise.bin", noise, false),
                ("Payload/App.app/empty.txt", [], false),
                ("Payload/App.app/Resources/with space.txt", Array("stored text\n".utf8), true)
            ], to: "App.ipa")
        let reference = try ReferenceSizes.zipEntries(path)
        #expect(Self.rows(try read(path).entrySizes) == ReferenceSizes.rows(reference))
        // Not vacuous: the listing holds every file, stored and deflated entries differ.
        #expect(reference.count == 5)
        #expect(reference["Payload/App.app/App"]?.compressed == UInt64(executable.count))
        #expect(reference.values.contains { $0.compressed < $0.uncompressed })
        #expect(reference["Payload/App.app/noise.bin"].map { $0.compressed > $0.uncompressed } == true)
    }

    /// The demo's .ipa, assembled from the committed fixtures as `make demo` does: its dSYMs and
    /// `SwiftSupport` (which `files` leaves out) are sized too.
    @Test func demoIPAEntriesHaveUnzipsSizes() throws {
        let path = Repository.path(Repository.demoIPA)
        let reference = try ReferenceSizes.zipEntries(path)
        #expect(reference.count > 5)
        #expect(Self.rows(try read(path).entrySizes) == ReferenceSizes.rows(reference))
    }

    @Test func folderFilesHaveTheirSizesOnDisk() throws {
        let tree = BundleAssembler(TemporaryDirectory("shipcheck-sizes"))
        let app = tree.folder(
            "App.app",
            files: [
                "App": "macho/App-ios", "Info.plist": "text:" + BundleAssembler.plist(["CFBundleExecutable": "App"]),
                "Frameworks/Core.framework/Core": "macho/libAppLib.dylib", "empty.txt": "text:"
            ],
            symlinks: ["Current": "Frameworks"])
        let reference = try ReferenceSizes.fileSizes(under: app)
        #expect(reference.count == 4)
        #expect(Self.rows(try read(app).entrySizes) == ReferenceSizes.rows(reference))
    }

    /// A Mach-O file given on its own, universal or thin: one entry, "", its size on disk.
    @Test(arguments: ["macho/App-universal", "macho/App-ios"]) func aLoneBinaryIsItsFileSize(_ fixture: String) throws {
        let path = BundleAssembler.fixture(fixture)
        let model = try #require(Self.inspector.readAlone(try BinaryFile(path: path)).contents)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        #expect(Self.rows(model.entrySizes) == [" \(size) \(size)"])
    }

    /// Mach-O files of every layout the fixtures have: thin and universal executables, a dylib,
    /// an arm64_32 watch app, an object (one unnamed segment), pre-flight fixtures.
    static let machOFixtures = [
        "macho/App-ios", "macho/App-macos", "macho/App-universal", "macho/App-ios-arm64e", "macho/libAppLib.dylib",
        "macho/WatchApp-universal", "macho/AppLib.o", "preflight/Store-ios", "preflight/Sim-fat",
        "preflight/Bitcode-ios"
    ]

    @Test(arguments: machOFixtures) func machOSegmentsAndSectionsHaveLLVMSizes(_ fixture: String) throws {
        let path = BundleAssembler.fixture(fixture)
        let image = try #require(Self.inspector.inspect(try BinaryFile(path: path), at: fixture).image)
        let slices = image.slices.filter(\.isRead)
        #expect(!slices.isEmpty)
        for slice in slices {
            let reference = try ReferenceSizes.machOSegments(path, architecture: slice.architecture)
            #expect(
                slice.segments.map { "\($0.name) vm \($0.vmSize) file \($0.fileSize)" }
                    == reference.map { "\($0.name) vm \($0.vmSize) file \($0.fileSize)" }, "\(slice.architecture)")
            #expect(
                slice.sections.map { "\($0.segment),\($0.name) \($0.size)" }
                    == reference.flatMap(\.sections).map { "\($0.segment),\($0.name) \($0.size)" },
                "\(slice.architecture)")
            #expect(!reference.flatMap(\.sections).isEmpty)
        }
    }
}

/// ELF section and segment sizes, as `ELFLoadFacts` holds them for every library the Android
/// walker reads (and the toolchain's own libraries, large and many-sectioned), against
/// `llvm-readelf`.
@Suite(.needsELF) struct ELFSizeFigureTests {
    static let libraries: [String] = {
        let manager = FileManager.default
        let android = Repository.path("Tests/Fixtures/android")
        let fixtures = ["jniLibs", "loose"].flatMap { folder in
            (manager.subpaths(atPath: "\(android)/\(folder)") ?? []).filter { $0.hasSuffix(".so") }.map {
                "\(android)/\(folder)/\($0)"
            }
        }
        let toolchain = Toolchain.root.appendingPathComponent("lib/swift/linux").path
        let runtime = (try? manager.contentsOfDirectory(atPath: toolchain))?.filter { $0.hasSuffix(".so") } ?? []
        return (fixtures + runtime.map { "\(toolchain)/\($0)" }).sorted()
    }()

    @Test func listsLibrariesOfEveryKind() {
        #expect(Self.libraries.count > 20)
        #expect(Self.libraries.contains { $0.hasSuffix("libswiftCore.so") && !$0.contains("Fixtures") })
    }

    @Test(arguments: libraries) func sectionsAndLoadSegmentsHaveReadelfSizes(_ path: String) throws {
        let facts = try ELFSupport.loadFacts(of: try FileBytes.map(path: path), origin: ImageOrigin(path: path))
        let sections = try ReferenceSizes.elfSections(path)
        // NOBITS (.bss, .tbss): the size is memory, not file bytes.
        #expect(
            facts.sections.map { "\($0.name) \($0.size)\($0.type == ELFLoadFacts.Section.noBits ? " NOBITS" : "")" }
                == sections.map { "\($0.name) \($0.size)\($0.type == "NOBITS" ? " NOBITS" : "")" })
        // Only a library without section headers (`libpacked.so`) lists none.
        #expect(!sections.isEmpty || facts.sectionHeaderProblem == .missing)
        let loads = try ReferenceSizes.elfLoadSegments(path)
        #expect(!loads.isEmpty)
        #expect(
            facts.loadSegments.map { "file \($0.fileSize) memory \($0.memorySize)" }
                == loads.map { "file \($0.fileSize) memory \($0.memorySize)" })
    }
}
