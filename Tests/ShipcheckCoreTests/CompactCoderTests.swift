import Foundation
import Testing

@testable import ShipcheckCore

/// The result cache's binary form: what it encodes decodes to the same value, and bytes that
/// are not such an encoding (a damaged pack) throw instead of crashing or decoding to something.
@Suite struct CompactCoderTests {
    enum Shape: Codable, Equatable {
        case point
        case named(String, count: Int)
        case nested([Shape])
    }

    struct Sample: Codable, Equatable {
        var text = "Ünïcode ✓ and \u{0}"
        var empty = ""
        var integers: [Int] = [0, 1, -1, .max, .min, 300]
        var unsigned: UInt64 = .max
        var small: Int8 = -128
        var double = -0.5
        var flag = true
        var missing: String? = nil
        var present: Int? = 7
        var optionals: [String?] = ["a", nil, ""]
        var bytes = Data([0, 1, 2, 255])
        var words: Set<String> = ["b", "a"]
        var table: [String: Set<String>] = ["View": ["Equatable"], "Model": []]
        /// More entries than a struct has fields: looked up by an index, not a linear search.
        var many = Dictionary(uniqueKeysWithValues: (0..<100).map { ("key\($0)", $0) })
        var shapes: [Shape] = [.point, .named("x", count: 2), .nested([.point, .nested([])])]
        var finding = Finding(
            ruleID: "preview-outside-debug", severity: .error, message: "a preview",
            location: .source(ShipcheckCore.SourceLocation(path: "A.swift", line: 3, column: 1)), fixHint: "wrap it")
    }

    @Test func everyShapeRoundTrips() throws {
        let sample = Sample()
        let bytes = try CompactCoder.encode(sample)
        #expect(try CompactCoder.decode(Sample.self, from: bytes[...]) == sample)
        #expect(bytes.count < (try JSONEncoder().encode(sample)).count)
    }

    @Test func damagedBytesThrow() throws {
        let bytes = try CompactCoder.encode(Sample())
        for length in 0..<bytes.count {
            #expect(throws: DecodingError.self) { try CompactCoder.decode(Sample.self, from: bytes[..<length]) }
        }
        var flipped = bytes
        flipped[0] = 0xff
        #expect(throws: DecodingError.self) { try CompactCoder.decode(Sample.self, from: flipped[...]) }
        #expect(throws: DecodingError.self) {
            try CompactCoder.decode(Sample.self, from: Array(repeating: 0xff, count: 64)[...])
        }
    }

    @Test func anotherTypesBytesDoNotDecode() throws {
        let bytes = try CompactCoder.encode(["only": 1])
        #expect(throws: DecodingError.self) { try CompactCoder.decode(Sample.self, from: bytes[...]) }
    }
}
