import ScanEngine
import Testing

/// The numbers reports and state files write byte by byte, without strings.
@Suite struct ByteSinkTests {
    func decimal(_ value: Int) -> String { written { $0.appendDecimal(value) } }
    func decimal(_ value: Int64) -> String { written { $0.appendDecimal(value) } }
    func decimal(_ value: UInt64) -> String { written { $0.appendDecimal(value) } }

    func written(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func decimalsAreWhatStringsSay() {
        for value: Int64 in [0, 7, 9, 10, 99, 100, 12_345, -1, -10, .max, .min] {
            #expect(decimal(value) == String(value))
        }
        #expect(decimal(UInt64.max) == "18446744073709551615")
        #expect(decimal(UInt64(255)) == "255")
        #expect(decimal(Int.min) == String(Int.min))
        var seed: UInt64 = 42
        for _ in 0..<1_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Int(truncatingIfNeeded: seed) >> Int(seed % 60)
            #expect(decimal(value) == String(value))
        }
    }

    @Test func hexKeepsLeadingZeros() {
        var bytes: [UInt8] = []
        bytes.appendHex(0xAB)
        #expect(String(decoding: bytes, as: UTF8.self) == "00000000000000ab")
    }
}
