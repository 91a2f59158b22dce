import AndroidArtifacts
import Foundation
import ShipcheckTestSupport
import Testing
import ZIPFoundation

/// The three manifest encodings read into the same facts: binary XML as Debian's aapt compiled
/// it, aapt2's protobuf XML as the fixture script wrote it with protobuf's own runtime, and text.
@Suite struct ManifestReaderTests {
    static func entry(_ name: String, of artifact: String) throws -> [UInt8] {
        let archive = try Archive(
            url: URL(fileURLWithPath: Repository.path("Tests/Fixtures/android/\(artifact)")), accessMode: .read)
        var bytes: [UInt8] = []
        _ = try archive.extract(try #require(archive[name])) { bytes += $0 }
        return bytes
    }

    /// Tests/Fixtures/android/src/planted.xml, as each reader must see it.
    static func expectPlantedFacts(_ manifest: AndroidManifest) {
        #expect(manifest.package == "com.example.shipcheck")
        #expect(manifest.versionCode == nil)
        #expect(manifest.minSdk == 24 && manifest.targetSdkText == "34" && manifest.targetSdk == 34)
        #expect(manifest.debuggable == true && manifest.testOnly == true && manifest.extractNativeLibs == false)
        #expect(manifest.formFactor == .mobile)
    }

    @Test func binaryXMLCompiledByAapt() throws {
        let bytes = try Self.entry("AndroidManifest.xml", of: "Planted.apk")
        #expect(BinaryXMLReader.isBinaryXML(bytes))
        let root = try BinaryXMLReader.read(bytes)
        Self.expectPlantedFacts(try AndroidManifest(root))
        // The android: attributes carry the framework's resource IDs through the resource map.
        let application = try #require(root.children(named: "application").first)
        #expect(application.androidAttribute(.debuggable)?.resourceID == AndroidAttribute.debuggable.resourceID)
    }

    @Test func cleanBinaryManifestHasItsVersion() throws {
        let manifest = try AndroidManifest(BinaryXMLReader.read(try Self.entry("AndroidManifest.xml", of: "Clean.apk")))
        #expect(manifest.versionCode == 7 && manifest.versionName == "1.0" && manifest.targetSdk == 36)
        #expect(manifest.debuggable == nil && manifest.testOnly == nil)
    }

    @Test func protobufXMLOfAnAppBundle() throws {
        let root = try ProtoXMLReader.read(try Self.entry("base/manifest/AndroidManifest.xml", of: "Planted.aab"))
        Self.expectPlantedFacts(try AndroidManifest(root))
    }

    @Test func bundleConfigAlignment() throws {
        let planted = try ProtoXMLReader.bundleConfig(try Self.entry("BundleConfig.pb", of: "Planted.aab"))
        #expect(planted.uncompressNativeLibraries && planted.nativeLibraryAlignment == nil)
        #expect(planted.bundletoolVersion == "1.15.6")
        let clean = try ProtoXMLReader.bundleConfig(try Self.entry("BundleConfig.pb", of: "Clean.aab"))
        #expect(clean.nativeLibraryAlignment == 16384)
    }

    /// The android: namespace is found by its URI, whatever prefix the file binds it to.
    @Test func textManifestResolvesTheNamespace() throws {
        let text = """
            <manifest xmlns:a="http://schemas.android.com/apk/res/android" package="com.example">
              <uses-sdk a:minSdkVersion="21" a:targetSdkVersion="36"/>
              <application a:debuggable="true" debuggable="false"/>
              <uses-feature a:name="android.hardware.type.watch"/>
            </manifest>
            """
        let manifest = try AndroidManifest(TextXMLReader.read(Array(text.utf8)))
        #expect(manifest.minSdk == 21 && manifest.targetSdk == 36 && manifest.debuggable == true)
        #expect(manifest.formFactor == .wear)
    }

    @Test func aRootThatIsNoManifestIsAnError() {
        #expect(throws: ManifestError.self) { try AndroidManifest(TextXMLReader.read(Array("<resources/>".utf8))) }
        #expect(throws: ManifestError.self) { try TextXMLReader.read(Array("<manifest><unclosed></manifest>".utf8)) }
    }

    /// libxml2 passes a processing instruction's missing data to Foundation as a null pointer,
    /// which it reads with strlen (found by the fuzzer): such a manifest is an error naming the
    /// byte, in UTF-8 and UTF-16 alike; an XML declaration and instructions with data are fine.
    @Test func aProcessingInstructionWithoutDataIsAnErrorNotACrash() throws {
        let text = "<?xml version=\"1.0\"?>\n<?xm?>\n<manifest package=\"com.example\"/>"
        let utf16: [UInt8] =
            [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for bytes in [Array(text.utf8), utf16] {
            #expect {
                try TextXMLReader.read(bytes)
            } throws: { error in
                (error as? ManifestError)?.message.contains("processing instruction without data at byte") == true
            }
        }
        let fine = "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\" ?>\n<manifest package=\"com.example\"/>"
        #expect(try AndroidManifest(TextXMLReader.read(Array(fine.utf8))).package == "com.example")
    }

    /// Foundation's XMLParser traps on a tag name that is not UTF-8 (found by the fuzzer): a
    /// manifest must decode as UTF-8 before it is parsed, unless it is UTF-16 or declares
    /// Latin-1, which libxml2 converts.
    @Test func textManifestThatIsNotTheUTF8ItSaysIsAnErrorNamingTheByte() throws {
        let bad = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<".utf8) + [0xFF, 0xFE] + Array(" a=\"1\"/>".utf8)
        #expect {
            try TextXMLReader.read(bad)
        } throws: { error in
            (error as? ManifestError)?.message == "not well-formed XML: byte 40 is not UTF-8"
        }
        // An encoding libxml2 does not know is no way around the check (the fuzzer's second find).
        let unknown =
            Array("<?xml version=\"1.0\" encoding=\"u".utf8) + [0xFF] + Array("tf-8\"?><a".utf8) + [0xD6]
            + Array("=\"1\"/>".utf8)
        #expect(throws: ManifestError.self) { try TextXMLReader.read(unknown) }
        let latin1 =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><manifest package=\"caf".utf8) + [0xE9]
            + Array("\"/>".utf8)
        let manifest = try TextXMLReader.read(latin1)
        #expect(manifest.attributes.first?.value == .string("café"))
    }

    /// Every prefix of a real manifest, and every single-byte change of its header and first
    /// chunks: an error or a tree, never a crash or a hang.
    @Test(arguments: ["binary", "protobuf"])
    func damagedManifestsAreErrorsNotCrashes(_ encoding: String) throws {
        let bytes =
            encoding == "binary"
            ? try Self.entry("AndroidManifest.xml", of: "Planted.apk")
            : try Self.entry("base/manifest/AndroidManifest.xml", of: "Planted.aab")
        let read: ([UInt8]) throws -> ManifestElement =
            encoding == "binary" ? { try BinaryXMLReader.read($0) } : { try ProtoXMLReader.read($0) }
        var failures = 0
        for length in 0..<bytes.count {
            do { _ = try read(Array(bytes[..<length])) } catch { failures += 1 }
        }
        #expect(failures > bytes.count / 2, "most truncations must be refused")
        for index in 0..<min(bytes.count, 600) {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var damaged = bytes
                damaged[index] = value
                _ = try? read(damaged)
            }
        }
    }

    /// A string pool that claims more strings than its chunk holds, and elements nested past
    /// any manifest, are refused with the reason.
    @Test func hostileBinaryXMLIsRefusedWithTheReason() throws {
        var pool: [UInt8] = [0x01, 0x00, 0x1C, 0x00]
        pool += le32(28 + 4) + le32(0x00FF_FFFF) + le32(0) + le32(0) + le32(32) + le32(0) + le32(0)
        let document: [UInt8] = [0x03, 0x00, 0x08, 0x00] + le32(UInt32(8 + pool.count)) + pool
        #expect {
            try BinaryXMLReader.read(document)
        } throws: { error in
            (error as? ManifestError)?.message.contains("string pool declares") == true
        }
    }

    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}
