import ScanEngine
import Testing

@Suite struct ParallelTableDecodeTests {
    struct Refused: Error, Equatable { let index: Int }

    /// Every index's element, in index order, the dropped ones left out — across stripes of
    /// different workers, so the stripes' moves together are what is checked.
    @Test(arguments: [0, 1, 15, 16, 17, 1000, 4099])
    func keepsIndexOrderAndLeavesOutNil(_ count: Int) throws {
        let decoded = [String](decodingTableOf: count, minimumStripe: 16) { index in
            index % 3 == 0 ? nil : "entry \(index)"
        }
        #expect(decoded == (0..<count).filter { $0 % 3 != 0 }.map { "entry \($0)" })
    }

    /// A stripe that keeps nothing, between stripes that keep everything.
    @Test func aStripeThatKeepsNothing() {
        let decoded = [Int](decodingTableOf: 64, minimumStripe: 16) { index in
            (16..<48).contains(index) ? nil : index
        }
        #expect(decoded == Array(0..<16) + Array(48..<64))
    }

    /// The error is the one a serial decoder meets first: the lowest failing index, whichever
    /// worker finishes first.
    @Test func throwsTheLowestIndexsError() {
        #expect(throws: Refused(index: 70)) {
            try [String](decodingTableOf: 4000, minimumStripe: 16) { index throws(Refused) in
                if index == 70 || index == 3000 || index == 3999 { throw Refused(index: index) }
                return String(index)
            }
        }
    }
}
