import Foundation
import ScanEngine
import Testing

/// What a file may mention, kept instead of its bytes: a name the file holds as a whole
/// identifier is always "maybe"; other names are "no" nearly always, however large the file.
@Suite struct IdentifierFilterTests {
    func filter(_ text: String) -> IdentifierFilter {
        Array(text.utf8).withByteView { IdentifierFilter($0) }
    }

    @Test func holdsEveryWholeIdentifier() {
        let filter = filter("let x = MockData.sample\nf(`Fixture`)\ng(ünicodeName)\nh(mockValue1)\n")
        for name in ["let", "x", "MockData", "sample", "Fixture", "ünicodeName", "mockValue1"] {
            #expect(filter.mayContain(name), "\(name)")
        }
    }

    @Test func partsOfIdentifiersAreNotIdentifiers() {
        let filter = filter("let y = MockDataSource + mockValue")
        for name in ["Mock", "Data", "MockData", "mockValue1", "Source"] {
            #expect(!filter.mayContain(name), "\(name)")
        }
    }

    /// A large file with thousands of distinct names: every one is held, and names it does not
    /// hold are rarely taken for held ones (each such name costs a second read of the file).
    @Test func staysSelectiveOnALargeFile() {
        let names = (0..<5000).map { "name\($0)_\($0 * 7919 % 10007)" }
        let text = names.map { "let \($0) = value(\($0.count))\n" }.joined()
        let filter = filter(text)
        #expect(names.allSatisfy(filter.mayContain))
        let absent = (0..<10000).map { "absent\($0)" }
        let falsePositives = absent.filter(filter.mayContain).count
        #expect(falsePositives < absent.count / 50, "\(falsePositives) of \(absent.count)")
        #expect(filter.byteCount <= text.utf8.count / 8)
    }

    @Test func survivesTheCacheRoundTrip() throws {
        let original = filter("struct Sample { let mock = MockData() }")
        let decoded = try JSONDecoder().decode(IdentifierFilter.self, from: JSONEncoder().encode(original))
        #expect(decoded == original)
        #expect(decoded.mayContain("MockData"))
    }

    @Test func aDamagedFilterDoesNotDecode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IdentifierFilter.self, from: Data("\"AAAA\"".utf8))
        }
    }
}

/// The result cache's content hash is XXH64 as its specification gives it (its test vectors).
@Suite struct ContentHashTests {
    func xxh64(_ text: String, seed: UInt64 = 0) -> UInt64 {
        Array(text.utf8).withByteView { ContentHash.xxh64($0, seed: seed) }
    }

    @Test func matchesTheReferenceVectors() {
        #expect(xxh64("") == 0xEF46_DB37_51D8_E999)
        #expect(xxh64("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(xxh64("abc") == 0x44BC_2CF5_AD77_0999)
        #expect(xxh64("Nobody inspects the spammish repetition") == 0xFBCE_A83C_8A37_8BF1)
    }

    @Test func everyByteCounts() {
        let text = String(repeating: "struct Sample { let value = 1 }\n", count: 40)
        let hash = Array(text.utf8).withByteView { ContentHash.hex($0) }
        #expect(hash.count == 32)
        var changed = Array(text.utf8)
        changed[changed.count / 2] ^= 1
        #expect(changed.withByteView { ContentHash.hex($0) } != hash)
    }
}
