import CByteSearch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over a buffer that tells which of several matchers can match in it at all: a
/// matcher whose every required text (`Matcher.requiredTexts`) is absent from the buffer has
/// no match there, so running it can be skipped. `query run --all` and `audit` read each file
/// once for every saved query; without this, each query would scan the whole file for its own
/// literal first, N scans where one will do.
///
/// How: Teddy, the multi-literal search ripgrep takes from Hyperscan. Each text's rarest
/// window of three bytes (all case variants for a case-insensitive text) is its fingerprint;
/// the texts share eight buckets, texts with like fingerprints together; one SIMD pass
/// (`shipcheck_teddy_next`) finds the positions where a bucket's fingerprint may start, and the
/// texts of that bucket are compared in place. A matcher drops out of the pass once one of its
/// texts is found, and the pass ends once every matcher is settled.
package struct RequiredTextFilter: Sendable {
    /// Every needle's bytes, one after another.
    private let text: [UInt8]
    /// Every needle, open, bucket after bucket; `owners[n]` is needle `n`'s matcher and
    /// `bucketBits[n]` its bucket's bit.
    private let needles: [shipcheck_teddy_needle]
    private let owners: [Int]
    private let bucketBits: [UInt8]
    private let tables: shipcheck_teddy_tables
    /// Per matcher: whether the pass can rule it out (it has required texts of two bytes or more).
    private let filterable: [Bool]

    package init(_ matchers: [Matcher]) {
        var text: [UInt8] = []
        var listed: [(needle: shipcheck_teddy_needle, owner: Int)] = []
        var filterable: [Bool] = []
        for (owner, matcher) in matchers.enumerated() {
            guard let required = matcher.requiredTexts, required.texts.allSatisfy({ $0.count >= 2 }) else {
                filterable.append(false)
                continue
            }
            filterable.append(true)
            for bytes in required.texts {
                listed.append(
                    (
                        shipcheck_teddy_needle(
                            start: text.count, length: bytes.count, anchor: Self.rarestWindow(in: bytes),
                            fold_case: required.foldCase ? 1 : 0, open: 1), owner
                    ))
                text += bytes
            }
        }
        // Like fingerprints share a bucket, so each bucket's nibble tables stay narrow: in
        // fingerprint order, the first eighth of the needles is bucket 0, and so on.
        func fingerprint(_ needle: shipcheck_teddy_needle) -> ArraySlice<UInt8> {
            text[(needle.start + needle.anchor)..<(needle.start + min(needle.length, needle.anchor + 3))]
        }
        listed.sort { fingerprint($0.needle).lexicographicallyPrecedes(fingerprint($1.needle)) }
        let count = listed.count
        func bucket(_ rank: Int) -> Int { count <= 8 ? rank : rank * 8 / count }

        var tables = shipcheck_teddy_tables()
        withUnsafeMutableBytes(of: &tables.low) { low in
            withUnsafeMutableBytes(of: &tables.high) { high in
                for (rank, (needle, _)) in listed.enumerated() {
                    let bit = UInt8(1) << bucket(rank)
                    for offset in 0..<3 {
                        guard needle.anchor + offset < needle.length else {
                            for entry in 0..<16 {
                                low[16 * offset + entry] |= bit
                                high[16 * offset + entry] |= bit
                            }
                            continue
                        }
                        for variant in Self.variants(
                            text[needle.start + needle.anchor + offset], foldCase: needle.fold_case != 0)
                        {
                            low[16 * offset + Int(variant & 0x0F)] |= bit
                            high[16 * offset + Int(variant >> 4)] |= bit
                        }
                    }
                }
            }
        }
        withUnsafeMutableBytes(of: &tables.bucket_start) { starts in
            let starts = starts.bindMemory(to: Int.self)
            for index in 0...8 { starts[index] = (0..<count).first { bucket($0) >= index } ?? count }
        }
        self.text = text
        self.needles = listed.map(\.needle)
        self.owners = listed.map(\.owner)
        bucketBits = listed.indices.map { UInt8(1) << bucket($0) }
        self.tables = tables
        self.filterable = filterable
    }

    /// The matchers among `candidates` (indices into the matchers the filter was made with)
    /// that may match in `bytes`, in the order given: all but those with required texts none
    /// of which occurs. With fewer than two that the pass could rule out, `candidates` as they
    /// are: a matcher's own search finds its text as fast as the pass would.
    package func possible(in view: borrowing ByteView, among candidates: [Int]) -> [Int] {
        let bytes = view.base
        guard candidates.count >= 2, let base = bytes.baseAddress else { return candidates }
        // Per matcher: true while it is searched for and none of its texts has been found.
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: filterable.count) { open in
            open.initialize(repeating: false)
            var openCount = 0
            for index in candidates where filterable[index] {
                open[index] = true
                openCount += 1
            }
            guard openCount >= 2 else { return candidates }
            withUnsafeTemporaryAllocation(of: shipcheck_teddy_needle.self, capacity: needles.count) { searched in
                withUnsafePointer(to: tables) { tables in
                    text.withUnsafeBufferPointer { text in
                        var position = 0, found = 0
                        var wanted = UInt8(0)
                        // Marks `owner`'s needles found (none to start with) and works out
                        // which buckets still have open needles.
                        func settle(_ owner: Int?) {
                            wanted = 0
                            for index in searched.indices {
                                if let owner, owners[index] == owner { searched[index].open = 0 }
                                if searched[index].open != 0 { wanted |= bucketBits[index] }
                            }
                        }
                        for index in needles.indices {
                            searched[index] = needles[index]
                            searched[index].open = open[owners[index]] ? 1 : 0
                        }
                        settle(nil)
                        while wanted != 0 {
                            position = shipcheck_teddy_find(
                                base, bytes.count, position, tables, text.baseAddress, searched.baseAddress, wanted,
                                &found)
                            guard position < bytes.count else { break }
                            // The matcher is settled: none of its needles is searched for any more.
                            open[owners[found]] = false
                            settle(owners[found])
                        }
                    }
                }
            }
            // Still open after the pass: none of the matcher's texts occurs.
            return candidates.filter { !open[$0] }
        }
    }

    /// The bytes a text's byte stands for: itself, and its capital when the text is folded.
    private static func variants(_ byte: UInt8, foldCase: Bool) -> [UInt8] {
        foldCase && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? [byte, byte - 0x20] : [byte]
    }

    /// Offset of the window of three bytes (the whole text when shorter) whose bytes are
    /// rarest in source code together.
    private static func rarestWindow(in text: [UInt8]) -> Int {
        let width = min(3, text.count)
        func rank(_ offset: Int) -> Int {
            text[offset..<(offset + width)].map { Int(shipcheck_byte_rank($0)) }.sorted().reduce(0) { $0 * 256 + $1 }
        }
        return (0...(text.count - width)).min { rank($0) < rank($1) } ?? 0
    }
}
