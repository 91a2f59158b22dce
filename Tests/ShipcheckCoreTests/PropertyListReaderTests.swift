import Foundation
import ShipcheckCore
import ShipcheckTestSupport
import Testing

@Suite struct PropertyListReaderTests {
    static var sample: [String: Any] { ["NSPrivacyTracking": false, "Names": ["a", "b"], "Nested": ["Count": 3]] }

    @Test func xmlAndBinaryPropertyListsAreRead() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: format, options: 0)
            let read = try #require(PropertyListReader.propertyList(from: Array(data)) as? [String: Any])
            #expect(read["Names"] as? [String] == ["a", "b"])
            #expect((read["Nested"] as? [String: Any])?["Count"] as? Int == 3)
        }
    }

    /// A set object (type 0xC) crashes swift-corelibs-foundation's reader: refused before it.
    @Test func damagedBinaryPropertyListsAreRefusedNotHandedToFoundation() throws {
        let crasher = try #require(
            FileManager.default.contents(
                atPath: Repository.path("Tests/Fixtures/fuzz-regressions/bundle/binary-plist-set-object.bin")))
        #expect(crasher[8] >> 4 == 0xC)
        #expect(PropertyListReader.propertyList(from: Array(crasher)) == nil)
        // An array that holds itself, and a trailer pointing past the end.
        var cyclic: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00, 8] + [UInt8](repeating: 0, count: 6) + [1, 1]
        cyclic += [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        #expect(PropertyListReader.propertyList(from: cyclic) == nil)
        let data = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: .binary, options: 0)
        #expect(PropertyListReader.propertyList(from: Array(data.dropLast(1))) == nil)
        #expect(PropertyListReader.propertyList(from: Array("bplist00".utf8)) == nil)
    }
}
