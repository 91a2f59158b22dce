import BinaryInspect
import Foundation
import ShipcheckTestSupport
import Testing

@testable import AndroidArtifacts

/// Every file of an Android artifact carries the sizes `unzip -Z -l` prints for it (an APK set's
/// APKs and, under their paths, their own entries alike), a jniLibs folder's files their sizes
/// on disk, a lone library its file size: what the walker records in its one pass.
@Suite struct EntrySizeTests {
    static let fixtures = Repository.path("Tests/Fixtures/android")

    private func read(_ path: String, kind: AndroidArtifactKind) throws -> AndroidArtifact {
        try #require(AndroidWalker(inspector: ReadBack.binaryInspector).read(path: path, kind: kind).artifact)
    }

    private func rows(_ sizes: [String: EntrySize]) -> [String] {
        ReferenceSizes.rows(sizes.mapValues { .init(compressed: $0.compressed, uncompressed: $0.uncompressed) })
    }

    @Test(arguments: [
        "Clean.apk", "Clean.aab", "KotlinOnly.apk", "Legacy.apk", "Planted.aab", "Planted.aar", "Planted.apk",
        "Planted.apks"
    ])
    func zipEntriesHaveUnzipsSizes(_ name: String) throws {
        let path = "\(Self.fixtures)/\(name)"
        let kind = try #require(AndroidArtifactKind(path: path))
        var reference = try ReferenceSizes.zipEntries(path)
        if kind == .apks {
            // Each APK of the set, taken out with unzip and listed on its own.
            let directory = TemporaryDirectory("shipcheck-apks")
            for apk in reference.keys where apk.hasSuffix(".apk") {
                let extracted = CommandRunner.run("unzip", ["-q", "-o", path, apk, "-d", directory.path])
                try #require(extracted.status == 0, "\(extracted.stderr)")
                for (entry, sizes) in try ReferenceSizes.zipEntries("\(directory.path)/\(apk)") {
                    reference["\(apk)/\(entry)"] = sizes
                }
            }
            #expect(reference.keys.contains { $0.hasSuffix(".apk/lib/arm64-v8a/libapp.so") })
        }
        let artifact = try read(path, kind: kind)
        #expect(rows(artifact.entrySizes) == ReferenceSizes.rows(reference))
        #expect(Set(artifact.files) == Set(reference.keys))
    }

    @Test func libraryFolderFilesHaveTheirSizesOnDisk() throws {
        let folder = "\(Self.fixtures)/jniLibs"
        let reference = try ReferenceSizes.fileSizes(under: folder)
        #expect(reference.count > 5)
        #expect(rows(try read(folder, kind: .libraryFolder).entrySizes) == ReferenceSizes.rows(reference))
    }

    @Test func aLoneLibraryIsItsFileSize() throws {
        let path = "\(Self.fixtures)/loose/libloose-bionic.so"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        // The one entry is named "": the artifact itself.
        #expect(rows(try read(path, kind: .library).entrySizes) == [" \(size) \(size)"])
    }
}
