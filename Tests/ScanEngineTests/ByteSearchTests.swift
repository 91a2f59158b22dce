import ScanEngine
import Testing

@testable import ScanEngine

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

    /// The search compares thirty-two or sixteen positions at a time and the rest byte by byte: every
    /// needle position, haystack length and tail must agree with a plain scan.
    @Test func findAgreesWithAPlainScanAtEveryLengthAndOffset() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab\n<é".utf8)
        for _ in 0..<3_000 {
            let haystack = (0..<Int.random(in: 0...140, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let needle = (0..<Int.random(in: 1...7, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...haystack.count, using: &generator)
            let plain = (start..<max(start, haystack.count - needle.count + 1)).first {
                Array(haystack[$0..<($0 + needle.count)]) == needle
            }
            let found = haystack.withUnsafeBytes { hay in
                needle.withUnsafeBytes { ByteSearch.find($0, in: hay, from: start) }
            }
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
        bytes.withByteView { raw in
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

    /// The validity check PCRE2's fast path relies on agrees with the standard library's
    /// decoder: every two-byte sequence, and three- and four-byte sequences at every boundary
    /// of each lead byte's allowed range, placed at every offset of a sixteen-byte block (the
    /// SIMD ASCII loop and the byte loop after it), truncated at the buffer's end as well.
    @Test func utf8ValidityAgreesWithTheStandardLibrary() {
        func check(_ bytes: [UInt8]) {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            let found = bytes.withUnsafeBytes { ByteSearch.isValidUTF8($0) }
            #expect(found == expected, "\(bytes.map { String($0, radix: 16) })")
        }
        for first in 0...255 {
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        let continuations: [UInt8] = [0x41, 0x80, 0xBF, 0xC0]
        for lead in UInt8(0xC0)...UInt8(0xFF) {
            for second in edges {
                for third in continuations {
                    for fourth in continuations {
                        let sequence = [lead, second, third, fourth]
                        for padding in [0, 5, 13, 14, 15, 16, 17, 31] {
                            let ascii = [UInt8](repeating: 0x61, count: padding)
                            check(ascii + sequence + ascii)
                            check(ascii + sequence.prefix(3))
                        }
                    }
                }
            }
        }
        check([UInt8](repeating: 0x61, count: 100))
        check([UInt8](repeating: 0x61, count: 100) + [0xE2, 0x82, 0xAC])
        check([])
    }

    /// `LineCursor` (newlines counted sixteen bytes at a time between offsets) gives the lines
    /// and line starts `LineTable` (every newline found, then a binary search) gives, for
    /// ascending offsets, repeated offsets and a restart from an earlier one, over buffers of
    /// long and short lines, CR LF, none at all, and newlines at every block boundary.
    @Test func lineCursorAgreesWithTheLineTable() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {  // splitmix64: the same buffers on every run
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var buffers: [[UInt8]] = [
            [], Array("no newline".utf8), [UInt8](repeating: 10, count: 40), Array("a\r\nb\r\n\r\nc".utf8)
        ]
        for lineLength in [1, 3, 15, 16, 17, 40, 200] {
            buffers.append((0..<600).map { _ in next(lineLength + 1) == 0 ? 10 : 0x61 })
        }
        // Past the 255 blocks after which the counter's lanes are summed: all newlines, and sparse ones.
        buffers.append([UInt8](repeating: 10, count: 9_000))
        buffers.append((0..<20_000).map { _ in next(3_000) == 0 ? 10 : 0x61 })
        for bytes in buffers {
            let table = LineTable(bytes)
            bytes.withByteView { buffer in
                var cursor = LineCursor()
                var offsets = (0..<40).map { _ in next(bytes.count + 1) }.sorted()
                offsets += [offsets.last ?? 0, 0] + offsets.prefix(10)  // the same again, then back to the top
                for offset in offsets {
                    let start = cursor.lineStart(containing: offset, in: buffer)
                    let line = cursor.line(of: offset, in: buffer)
                    let expected = table.position(of: offset)
                    #expect(line == expected.line, "offset \(offset) of \(bytes.count)")
                    #expect(offset - start + 1 == expected.column, "offset \(offset) of \(bytes.count)")
                }
                // One jump over the whole buffer.
                var fresh = LineCursor()
                #expect(
                    fresh.line(of: bytes.count, in: buffer) == table.position(of: bytes.count).line,
                    "end of \(bytes.count)")
            }
        }
    }
}
