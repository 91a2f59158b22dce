import ScanEngine
import ShipcheckCore

/// The byte prefilter of the reference pass: whether a file can mention one of the DEBUG-only
/// names at all. A few names are searched with memmem each; past that, one pass over the file
/// hashes every identifier-shaped run of bytes and looks it up, so the cost no longer grows
/// with the number of names. A hash collision only lets an extra file through to the parser.
struct NameMentions: Sendable {
    static let memmemLimit = 8

    private let names: [String]
    private let hashes: Set<UInt64>

    init(_ names: [String]) {
        self.names = names
        hashes = names.count > Self.memmemLimit ? Set(names.map { Self.hash(Array($0.utf8)[...]) }) : []
    }

    var isEmpty: Bool { names.isEmpty }

    func isMentioned(in bytes: borrowing ByteView) -> Bool {
        if names.count <= Self.memmemLimit {
            return names.contains { bytes.contains($0) }
        }
        var found = false
        Self.forEachIdentifier(in: bytes) { hash in
            found = hashes.contains(hash)
            return !found
        }
        return found
    }

    /// The hashes of every identifier-shaped run of bytes, for `IdentifierSet`.
    static func identifierHashes(in bytes: borrowing ByteView) -> Set<UInt64> {
        var hashes: Set<UInt64> = []
        forEachIdentifier(in: bytes) {
            hashes.insert($0)
            return true
        }
        return hashes
    }

    /// Calls `body` with the hash of each identifier-shaped run until it returns false.
    private static func forEachIdentifier(in buffer: borrowing ByteView, _ body: (UInt64) -> Bool) {
        var index = 0
        while index < buffer.count {
            guard ByteSearch.isIdentifierByte(buffer[index]) else {
                index += 1
                continue
            }
            var hash = offsetBasis
            while index < buffer.count, ByteSearch.isIdentifierByte(buffer[index]) {
                hash = (hash ^ UInt64(buffer[index])) &* prime
                index += 1
            }
            if !body(hash) { return }
        }
    }

    // FNV-1a, 64 bits.
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01b3

    static func hash(_ name: String) -> UInt64 { hash(Array(name.utf8)[...]) }

    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(offsetBasis) { ($0 ^ UInt64($1)) &* prime }
    }
}
