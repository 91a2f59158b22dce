import BinaryReaderCore
import Testing

/// The LEB128 and padded-name readers of `ImageBytes`, on bytes spelled out here (the DWARF
/// specification's examples for LEB128).
@Suite struct ImageBytesEncodingTests {
    static func view(_ bytes: [UInt8]) -> ImageBytes { FileBytes(copying: bytes).whole }

    @Test func unsignedLEB128ReadsAndMovesPastTheNumber() {
        let bytes = Self.view([0x02, 0x7F, 0x80, 0x01, 0xE5, 0x8E, 0x26])
        var offset = 0
        let values = (0..<4).map { _ in bytes.uleb128(at: &offset) }
        #expect(values == [2, 127, 128, 624_485])
        #expect(offset == 7)
        #expect(bytes.uleb128(at: &offset) == nil, "nothing left")
    }

    @Test func unsignedLEB128TakesTheWidestNumberAndRefusesWiderOnes() {
        let widest = Self.view(Array(repeating: 0xFF, count: 9) + [0x01])
        var offset = 0
        #expect(widest.uleb128(at: &offset) == UInt64.max)
        #expect(offset == 10)
        // A tenth byte with more than the top bit, or an eleventh byte: past 64 bits.
        let tooWide: [[UInt8]] = [Array(repeating: 0xFF, count: 9) + [0x02], Array(repeating: 0x80, count: 10) + [0x00]]
        for bytes in tooWide {
            var start = 0
            #expect(Self.view(bytes).uleb128(at: &start) == nil)
            #expect(start == 0, "left where the number started")
        }
    }

    @Test func truncatedLEB128IsNilAndLeavesTheOffset() {
        let bytes = Self.view([0x01, 0x80, 0x80])
        var offset = 1
        #expect(bytes.uleb128(at: &offset) == nil)
        #expect(bytes.sleb128(at: &offset) == nil)
        #expect(offset == 1)
        var outside = -1
        #expect(bytes.uleb128(at: &outside) == nil)
    }

    @Test func signedLEB128ExtendsTheSign() {
        let bytes = Self.view([0x02, 0x7E, 0xFF, 0x00, 0x81, 0x7F, 0x80, 0x7F, 0xC0, 0xBB, 0x78])
        var offset = 0
        let values = (0..<6).map { _ in bytes.sleb128(at: &offset) }
        #expect(values == [2, -2, 127, -127, -128, -123_456])
        #expect(offset == 11)
    }

    @Test func paddedNamesStopAtTheirFirstNULOrFillTheField() throws {
        let field = Array("__text".utf8) + Array(repeating: 0, count: 10) + Array("__objc_classlist".utf8)
        let bytes = Self.view(field)
        #expect(try bytes.paddedName(at: 0, width: 16, "section") == "__text")
        #expect(try bytes.paddedName(at: 16, width: 16, "section") == "__objc_classlist")
    }

    @Test func paddedNamePastTheViewNamesTheStructureAndTheFileOffset() throws {
        let part = try #require(Self.view(Array(repeating: 0x41, count: 40)).slice(8..<28))
        #expect(throws: ImageBytesError.self) { try part.paddedName(at: 8, width: 16, "section 2 of __TEXT") }
        do {
            _ = try part.paddedName(at: 8, width: 16, "section 2 of __TEXT")
        } catch {
            #expect(
                error.message
                    == "section 2 of __TEXT: 16 bytes at offset 8 run past the end of its 20 bytes (at file offset 0x10)"
            )
        }
    }
}
