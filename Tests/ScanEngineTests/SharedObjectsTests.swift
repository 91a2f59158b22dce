import Dispatch
import ScanEngine
import Testing

/// The read pass lends the checks, their clocks and compiled queries without a reference count
/// (see docs/performance.md, "Lending shared objects"): each thread must get the object held at
/// the index, and lending must neither retain nor release, so the objects live exactly as long
/// as the `SharedObjects` value.
@Suite struct SharedObjectsTests {
    final class Numbered: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func everyThreadBorrowsTheHeldObjectAndTheObjectsGoWithTheValue() {
        weak var first: Numbered?
        weak var last: Numbered?
        do {
            let shared = SharedObjects((0..<8).map(Numbered.init))
            first = shared.objects.first
            last = shared.objects.last
            let mismatches = DispatchQueue.concurrentPerform(collecting: 8_000) { iteration -> Bool in
                let index = iteration % shared.count
                return shared.borrow(index) { $0.number != index || $0 !== shared.objects[index] }
            }
            #expect(mismatches == 0)
            #expect(first != nil && last != nil)
        }
        #expect(first == nil && last == nil, "a borrow retained an object it lent (a leak) or the value leaked")
    }
}

extension DispatchQueue {
    /// How many of `iterations` concurrent calls of `body` returned true.
    fileprivate static func concurrentPerform(collecting iterations: Int, _ body: @Sendable (Int) -> Bool) -> Int {
        let counter = StripedCounter()
        concurrentPerform(iterations: iterations) { if body($0) { counter.add(1) } }
        return counter.total
    }
}
