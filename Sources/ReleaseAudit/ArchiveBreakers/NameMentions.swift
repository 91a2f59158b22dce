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

    func isMentioned(in bytes: [UInt8]) -> Bool {
        if names.count <= Self.memmemLimit { return names.contains { ByteSearch.contains($0, in: bytes) } }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                guard ByteSearch.isIdentifierByte(buffer[index]) else {
                    index += 1
                    continue
                }
                var hash = Self.offsetBasis
                while index < buffer.count, ByteSearch.isIdentifierByte(buffer[index]) {
                    hash = (hash ^ UInt64(buffer[index])) &* Self.prime
                    index += 1
                }
                if hashes.contains(hash) { return true }
            }
            return false
        }
    }

    // FNV-1a, 64 bits.
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01b3

    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(offsetBasis) { ($0 ^ UInt64($1)) &* prime }
    }
}
