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

    /// The search compares sixteen positions at a time and the rest byte by byte: every
    /// needle position, haystack length and tail must agree with a plain scan.
    @Test func findAgreesWithAPlainScanAtEveryLengthAndOffset() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab\n<é".utf8)
        for _ in 0..<3_000 {
            let haystack = (0..<Int.random(in: 0...80, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 1...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let start = Int.random(in: 0...haystack.count, using: &generator)
            let plain = (start..<max(start, haystack.count - needle.count + 1)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
            let found = haystack.withUnsafeBytes { hay in needle.withUnsafeBytes { ByteSearch.find($0, in: hay, from: start) } }
            #expect(found == plain, "\(haystack) \(needle) from \(start)")
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
