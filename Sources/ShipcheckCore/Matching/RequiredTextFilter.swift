#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteSearch

/// One pass over a buffer that tells which of several matchers can match in it at all: a
/// matcher whose every required text (`Matcher.requiredTexts`) is absent from the buffer has
/// no match there, so running it can be skipped. `query run --all` and `audit` read each file
/// once for every saved query; without this, each query would scan the whole file for its own
/// literal first, N scans where one will do.
///
/// How: each text's rarest pair of adjacent bytes (all case variants for a case-insensitive
/// text) marks one of eight buckets in a 64 Ki table indexed by two bytes, as Teddy (ripgrep's
/// multi-literal search) groups its needles; one pass looks every pair of the buffer up and
/// checks the texts of a marked bucket in place. A matcher drops out of the pass once one of
/// its texts is found, and the pass ends once every matcher is settled.
public struct RequiredTextFilter: Sendable {
    private struct Needle: Sendable {
        var bytes: [UInt8]
        /// ASCII-lowercased `bytes` found in either case.
        var foldCase: Bool
        /// Offset of the anchoring pair in `bytes`.
        var anchor: Int
        var owner: Int
        var bucket: Int
    }

    private let needles: [Needle]
    /// Per bucket: its needles, by index.
    private let members: [[Int]]
    /// Per pair of bytes (`first | second << 8`): the buckets of needles anchored on it.
    private let buckets: [UInt8]
    /// Per matcher: whether the pass can rule it out (it has required texts of two bytes or more).
    private let filterable: [Bool]

    public init(_ matchers: [Matcher]) {
        var needles: [Needle] = []
        var filterable: [Bool] = []
        for (owner, matcher) in matchers.enumerated() {
            guard let required = matcher.requiredTexts, required.texts.allSatisfy({ $0.count >= 2 }) else {
                filterable.append(false)
                continue
            }
            filterable.append(true)
            for text in required.texts {
                needles.append(Needle(bytes: text, foldCase: required.foldCase, anchor: Self.rarestPair(in: text), owner: owner, bucket: needles.count % 8))
            }
        }
        members = (0..<8).map { bucket in needles.indices.filter { needles[$0].bucket == bucket } }
        var buckets = [UInt8](repeating: 0, count: 1 << 16)
        for needle in needles {
            let first = needle.bytes[needle.anchor], second = needle.bytes[needle.anchor + 1]
            for a in Self.variants(first, foldCase: needle.foldCase) {
                for b in Self.variants(second, foldCase: needle.foldCase) {
                    buckets[Int(a) | Int(b) << 8] |= 1 << needle.bucket
                }
            }
        }
        self.needles = needles
        self.buckets = buckets
        self.filterable = filterable
    }

    /// The matchers among `candidates` (indices into the matchers the filter was made with)
    /// that may match in `bytes`, in the order given: all but those with required texts none
    /// of which occurs. With fewer than two that the pass could rule out, `candidates` as they
    /// are: a matcher's own search finds its text as fast as the pass would.
    public func possible(in bytes: UnsafeRawBufferPointer, among candidates: [Int]) -> [Int] {
        guard candidates.count >= 2 else { return candidates }  // without a table per file
        var open = [Bool](repeating: false, count: filterable.count)
        var openCount = 0
        for index in candidates where filterable[index] {
            open[index] = true
            openCount += 1
        }
        guard openCount >= 2, let base = bytes.baseAddress else { return candidates }
        // Per bucket: needles whose matcher is still open.
        var live = [Int](repeating: 0, count: 8)
        for needle in needles where open[needle.owner] { live[needle.bucket] += 1 }
        var wanted = Self.mask(live)
        buckets.withUnsafeBufferPointer { buckets in
            var position = 0
            while wanted != 0 {
                position = shipcheck_next_pair(base, bytes.count, position, buckets.baseAddress, wanted)
                if position + 1 >= bytes.count { break }
                var hit = buckets[Int(bytes[position]) | Int(bytes[position + 1]) << 8] & wanted
                while hit != 0 {
                    let bucket = hit.trailingZeroBitCount
                    hit &= hit - 1
                    for index in members[bucket] where open[needles[index].owner] && Self.occurs(needles[index], before: position, in: bytes) {
                        let owner = needles[index].owner
                        open[owner] = false
                        for other in needles where other.owner == owner { live[other.bucket] -= 1 }
                        wanted = Self.mask(live)
                    }
                }
                position += 1
            }
        }
        // Still open after the pass: none of the matcher's texts occurs.
        return candidates.filter { !open[$0] }
    }

    private static func mask(_ live: [Int]) -> UInt8 {
        var mask: UInt8 = 0
        for (bucket, count) in live.enumerated() where count > 0 { mask |= 1 << bucket }
        return mask
    }

    /// Whether `needle` is in `bytes` with its anchoring pair at `position`.
    private static func occurs(_ needle: Needle, before position: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        let start = position - needle.anchor
        guard start >= 0, start + needle.bytes.count <= bytes.count else { return false }
        return needle.bytes.withUnsafeBufferPointer { text in
            if !needle.foldCase { return memcmp(bytes.baseAddress! + start, text.baseAddress!, text.count) == 0 }
            for offset in 0..<text.count where Matcher.asciiLowercased(bytes[start + offset]) != text[offset] { return false }
            return true
        }
    }

    /// The bytes a text's byte stands for: itself, and its capital when the text is folded.
    private static func variants(_ byte: UInt8, foldCase: Bool) -> [UInt8] {
        foldCase && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? [byte, byte - 0x20] : [byte]
    }

    /// Offset of the adjacent pair of `text` whose bytes are rarest in source code together.
    private static func rarestPair(in text: [UInt8]) -> Int {
        (0..<(text.count - 1)).min { pairRank(text, $0) < pairRank(text, $1) } ?? 0
    }

    private static func pairRank(_ text: [UInt8], _ offset: Int) -> Int {
        let first = Int(shipcheck_byte_rank(text[offset])), second = Int(shipcheck_byte_rank(text[offset + 1]))
        return min(first, second) * 256 + max(first, second)
    }
}
