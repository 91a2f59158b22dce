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
