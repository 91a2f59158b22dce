import Testing
@testable import ShipcheckCore

@Suite struct ByteSearchTests {
    @Test func findsNeedlesAndBytesFromAnOffset() {
        let bytes = Array("abc<<<<<<< x\n<<<<<<<".utf8)
        bytes.withUnsafeBytes { hay in
            let needle = Array("<<<<<<<".utf8)
            needle.withUnsafeBytes { n in
                #expect(ByteSearch.find(n, in: hay) == 3)
                #expect(ByteSearch.find(n, in: hay, from: 4) == 13)
                #expect(ByteSearch.find(n, in: hay, from: 14) == nil)
            }
            #expect(ByteSearch.find(byte: UInt8(ascii: "\n"), in: hay) == 12)
        }
    }

    @Test func lineTableMapsOffsetsToLinesAndColumns() {
        let bytes = Array("one\r\ntwo\n\nfour".utf8)
        let table = LineTable(bytes)
        #expect(table.position(of: 0) == (1, 1))
        #expect(table.position(of: 5) == (2, 1))
        #expect(table.position(of: 7) == (2, 3))
        #expect(table.position(of: 10) == (4, 1))
        bytes.withUnsafeBytes { raw in
            #expect(table.range(ofLine: 1, in: raw) == 0..<3)  // CR stripped
            #expect(table.range(ofLine: 3, in: raw) == 9..<9)
            #expect(table.range(ofLine: 4, in: raw) == 10..<14)
        }
    }

    @Test func binaryDetectionLooksForNULInTheFirstWindow() {
        #expect(ByteSearch.looksBinary(UnsafeRawBufferPointer(start: nil, count: 0)) == false)
        [UInt8](repeating: 65, count: 10_000).withUnsafeBytes { #expect(!ByteSearch.looksBinary($0)) }
        ([UInt8](repeating: 65, count: 100) + [0]).withUnsafeBytes { #expect(ByteSearch.looksBinary($0)) }
        ([UInt8](repeating: 65, count: 9000) + [0]).withUnsafeBytes { #expect(!ByteSearch.looksBinary($0)) }
    }
}
